// HaloUpdate: builds one halo Plan for a list of grids from the ghost-piece geometry, and runs it.
// Every (sender, receiver) pair exchanges one message holding all its pieces (faces, edges,
// corners, wrap-arounds), so a neighbour that is adjacent on several sides costs one message; per
// grid with HaloMessages::per_variable. Between node peers the pieces are split in two messages by
// shape: rows (runs of at least a cache line), which the receiver reads in place, and short runs
// (columns, corners), which the plan packs on the sender's side. One message of both kinds would be
// packed whole (a plan decides per message), copying the rows twice.
#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "grid_state.hpp"
#include "halo_pieces.hpp"

namespace ghostwire {
namespace detail {

struct HaloUpdateState {
  std::vector<GridState*> grids;
  HaloMessages messages = HaloMessages::per_neighbour;
  std::optional<Plan> plan;
  std::vector<char> in_flight;  // per grid (per_variable) or one flag
  std::size_t channels_per_group = 2;  // rows, short runs
};

namespace {

// The box of cells at `low` (local coordinates) in a block laid out as `b`, as a plan layout.
Layout box_layout(const BlockLayout& b, int dimensions, const Index* low, const Index* extent) {
  std::size_t extents[3];
  std::ptrdiff_t strides[3];
  for (int k = 0; k < dimensions; ++k) {  // the layout lists the fastest dimension first
    int d = dimensions - 1 - k;
    extents[k] = static_cast<std::size_t>(extent[d]);
    strides[k] = b.stride[d];
  }
  return Layout::box(static_cast<std::size_t>(b.offset(low, dimensions)),
                     std::span<const std::size_t>(extents, static_cast<std::size_t>(dimensions)),
                     std::span<const std::ptrdiff_t>(strides, static_cast<std::size_t>(dimensions)));
}

bool same_halo(const HaloSpec& a, const HaloSpec& b) {
  if (a.dimensions != b.dimensions || a.stencil != b.stencil) return false;
  for (int d = 0; d < a.dimensions; ++d)
    if (a.width[d] != b.width[d] || a.periodic[d] != b.periodic[d]) return false;
  return true;
}

void check_grids(const std::vector<GridState*>& grids) {
  const GridState& first = *grids[0];
  for (std::size_t g = 1; g < grids.size(); ++g) {
    const GridState& other = *grids[g];
    std::string which = "HaloUpdate: grid " + std::to_string(g);
    for (std::size_t h = 0; h < g; ++h)
      if (grids[h] == grids[g])
        raise(Errc::invalid_argument, which + " is the same grid as grid " + std::to_string(h) + "; list each grid once");
    if (other.world != first.world)
      raise(Errc::mismatch, which + " belongs to another World than grid 0");
    if (!(other.pattern == first.pattern))
      raise(Errc::mismatch, which + " has the pattern (" + other.pattern.describe() + ") but grid 0 has (" +
                                first.pattern.describe() + "); all grids of one update need the same pattern and halo");
    if (!same_halo(other.halo, first.halo))
      raise(Errc::mismatch, which + " has the halo (" + describe_halo(other.halo) + ") but grid 0 has (" +
                                describe_halo(first.halo) + "); all grids of one update need the same pattern and halo");
  }
}

void build_plan(HaloUpdateState& u) {
  const GridState& first = *u.grids[0];
  World& world = *first.world;
  const PatternCore& pattern = first.pattern;
  const HaloSpec& halo = first.halo;
  const int me = world.rank(), n = pattern.dimensions();

  std::vector<GhostPiece> receives;
  ghost_pieces(pattern, halo, me, receives);
  std::map<int, std::vector<GhostPiece>> sends;
  std::vector<GhostPiece> theirs;
  for (int r : possible_receivers(pattern, halo, me)) {
    theirs.clear();
    ghost_pieces(pattern, halo, r, theirs);
    for (const GhostPiece& piece : theirs)
      if (piece.sender == me) sends[r].push_back(piece);
  }
  std::vector<int> neighbours;
  for (const auto& [rank, pieces] : sends) neighbours.push_back(rank);
  for (const GhostPiece& piece : receives) neighbours.push_back(piece.sender);
  std::sort(neighbours.begin(), neighbours.end());
  neighbours.erase(std::unique(neighbours.begin(), neighbours.end()), neighbours.end());

  const bool per_variable = u.messages == HaloMessages::per_variable;
  const std::size_t groups = per_variable ? u.grids.size() : 1;
  u.plan.emplace(world, std::span<const int>(neighbours), groups * u.channels_per_group);
  Plan& plan = *u.plan;
  for (std::size_t g = 0; g < u.grids.size(); ++g) {
    GridState& grid = *u.grids[g];
    Region region = plan.add_memory(*grid.segment, grid.element_size);
    // Both sides see the same piece extents and element size, so they choose the same channel.
    auto channel = [&](int rank, const GhostPiece& piece) {
      std::size_t base = (per_variable ? g : 0) * u.channels_per_group;
      // (Messages to myself are read in place whatever their shape: one message.)
      bool short_runs = rank != me && world.shares_memory_with(rank) &&
                        static_cast<std::size_t>(piece.extent[n - 1]) * grid.element_size < cache_line;
      return base + (short_runs ? 1 : 0);
    };
    for (const GhostPiece& piece : receives)
      plan.add_receive(channel(piece.sender, piece), piece.sender, region,
                       box_layout(grid.layout, n, piece.receiver_low, piece.extent));
    for (const auto& [rank, pieces] : sends)
      for (const GhostPiece& piece : pieces)
        plan.add_send(channel(rank, piece), rank, region, box_layout(grid.layout, n, piece.sender_low, piece.extent));
  }
  plan.commit();
  u.in_flight.assign(groups, 0);
}

void require_idle(const HaloUpdateState& u, long grid, const char* call) {
  bool busy = false;
  if (grid < 0 || u.messages == HaloMessages::per_neighbour) {
    for (char flag : u.in_flight) busy |= flag != 0;
  } else {
    busy = u.in_flight[static_cast<std::size_t>(grid)] != 0;
  }
  if (busy)
    raise(Errc::state, std::string(call) + ": an asynchronous update of " +
                           (grid < 0 ? std::string("these grids") : "grid " + std::to_string(grid)) +
                           " is still under way; call wait() on its handle first");
}

// Checks that one grid can be exchanged alone; returns the grid.
std::size_t group_of(const HaloUpdateState& u, std::size_t grid, const char* call) {
  if (u.messages != HaloMessages::per_variable)
    raise(Errc::state, std::string(call) + "(" + std::to_string(grid) +
                           "): this update sends all grids in one message per neighbour "
                           "(HaloMessages::per_neighbour); updating one grid needs HaloMessages::per_variable");
  if (grid >= u.grids.size())
    raise(Errc::out_of_range, std::string(call) + ": grid " + std::to_string(grid) + " is not in [0, " +
                                  std::to_string(u.grids.size()) + ") of this update");
  return grid;
}

}  // namespace
}  // namespace detail

HaloUpdate::HaloUpdate(std::span<GridBase* const> grids, HaloMessages messages)
    : state_(std::make_unique<detail::HaloUpdateState>()) {
  detail::HaloUpdateState& u = *state_;
  if (grids.empty()) raise(Errc::invalid_argument, "HaloUpdate: no grids given; expected at least one");
  if (messages != HaloMessages::per_neighbour && messages != HaloMessages::per_variable)
    raise(Errc::invalid_argument, "HaloUpdate: unknown HaloMessages value " + std::to_string(static_cast<int>(messages)));
  for (std::size_t g = 0; g < grids.size(); ++g) {
    if (!grids[g]) raise(Errc::invalid_argument, "HaloUpdate: grid " + std::to_string(g) + " is null");
    u.grids.push_back(&grids[g]->state());
  }
  u.messages = messages;
  detail::check_grids(u.grids);
  detail::build_plan(u);
}

HaloUpdate::~HaloUpdate() = default;
HaloUpdate::HaloUpdate(HaloUpdate&&) noexcept = default;
HaloUpdate& HaloUpdate::operator=(HaloUpdate&&) noexcept = default;

void HaloUpdate::run() {
  detail::require_idle(*state_, -1, "HaloUpdate::run");
  state_->plan->exchange();
}

void HaloUpdate::run(std::size_t grid) {
  detail::HaloUpdateState& u = *state_;
  std::size_t first = detail::group_of(u, grid, "HaloUpdate::run") * u.channels_per_group;
  detail::require_idle(u, static_cast<long>(grid), "HaloUpdate::run");
  for (std::size_t c = first; c < first + u.channels_per_group; ++c) u.plan->start(c);
  for (std::size_t c = first; c < first + u.channels_per_group; ++c) u.plan->finish(c);
}

HaloHandle HaloUpdate::start() {
  detail::HaloUpdateState& u = *state_;
  detail::require_idle(u, -1, "HaloUpdate::start");
  u.plan->start();
  std::fill(u.in_flight.begin(), u.in_flight.end(), 1);
  return HaloHandle(&u, -1);
}

HaloHandle HaloUpdate::start(std::size_t grid) {
  detail::HaloUpdateState& u = *state_;
  std::size_t group = detail::group_of(u, grid, "HaloUpdate::start");
  detail::require_idle(u, static_cast<long>(grid), "HaloUpdate::start");
  for (std::size_t c = 0; c < u.channels_per_group; ++c) u.plan->start(group * u.channels_per_group + c);
  u.in_flight[group] = 1;
  return HaloHandle(&u, static_cast<long>(grid));
}

std::size_t HaloUpdate::grids() const noexcept { return state_->grids.size(); }
HaloMessages HaloUpdate::messages() const noexcept { return state_->messages; }
const Plan& HaloUpdate::plan() const noexcept { return *state_->plan; }
std::string HaloUpdate::describe() const {
  return "halo update of " + std::to_string(state_->grids.size()) + " grid(s), " +
         (state_->messages == HaloMessages::per_neighbour ? "one message per neighbour" : "one message per grid") +
         "\n" + state_->plan->describe();
}

HaloHandle::HaloHandle(HaloHandle&& other) noexcept : state_(other.state_), grid_(other.grid_) {
  other.state_ = nullptr;
}

HaloHandle& HaloHandle::operator=(HaloHandle&& other) noexcept {
  if (this != &other) {
    if (state_) {
      try {
        wait();
      } catch (const std::exception&) {
      }
    }
    state_ = other.state_;
    grid_ = other.grid_;
    other.state_ = nullptr;
  }
  return *this;
}

HaloHandle::~HaloHandle() {
  if (!state_) return;
  try {
    wait();
  } catch (const std::exception&) {
    // A destructor must not throw; a timeout has printed its diagnostic already.
  }
}

void HaloHandle::wait() {
  if (!state_) return;
  detail::HaloUpdateState& u = *state_;
  state_ = nullptr;
  if (grid_ < 0) {
    u.plan->finish();
    std::fill(u.in_flight.begin(), u.in_flight.end(), 0);
  } else {
    const std::size_t group = static_cast<std::size_t>(grid_);
    for (std::size_t c = 0; c < u.channels_per_group; ++c) u.plan->finish(group * u.channels_per_group + c);
    u.in_flight[group] = 0;
  }
}

}  // namespace ghostwire
