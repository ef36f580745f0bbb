// SPDX-License-Identifier: BSD-3-Clause
// HaloUpdate: builds one halo Plan for a list of grids from the ghost-piece geometry, and runs it.
// Each grid contributes the pieces of its own ghost layers (its halo, or the depth asked for), so
// grids with different halos share messages. Every (sender, receiver) pair exchanges one message
// holding all its pieces (faces, edges, corners, wrap-arounds), so a neighbour that is adjacent on
// several sides costs one message; per grid with HaloMessages::per_variable. Between node peers the
// plan itself splits such a message by shape (rows read in place, columns staged: docs/plans.md,
// "How a plan works inside").
//
// Lifetime (docs/dist.md, "Moves, handles and destruction"): the HaloUpdate is the one owner of its
// state; handles hold weak references. The state is never freed with an exchange in flight (its
// destructor finishes it, collectively like every wait), so a handle can tell "update gone" from
// "still there" and never touches freed memory; a moved-from update has no state and says so.
#include <algorithm>
#include <map>
#include <optional>
#include <sstream>

#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "grid_state.hpp"
#include "halo_pieces.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/team_barrier.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire {
namespace detail {

struct HaloUpdateState {
  std::vector<GridState*> grids;
  std::vector<GhostLayers> layers;  // per grid: the ghost cells this update fills
  std::vector<HaloDepth> depths;    // per grid: as given
  HaloMessages messages = HaloMessages::per_neighbour;
  std::optional<Plan> plan;
  // Per grid (per_variable) or one flag: 1 a forward exchange, 2 a reverse one (then for all grids,
  // combined as reverse_how says).
  std::vector<char> in_flight;
  std::vector<Combine> reverse_how;
  TeamBarrier team;             // run_shared's threads

  HaloUpdateState() = default;
  HaloUpdateState(const HaloUpdateState&) = delete;
  HaloUpdateState& operator=(const HaloUpdateState&) = delete;
  ~HaloUpdateState();  // finishes an exchange still in flight (collective)
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
                                first.pattern.describe() + "); all grids of one update need the same pattern");
  }
}

// The ghost layers `depth` asks for in grid g, checked against its halo.
GhostLayers resolve(const GridState& grid, const HaloDepth& depth, std::size_t g) {
  GhostLayers layers = all_layers(grid.halo);
  if (depth.whole()) return layers;
  const int n = grid.halo.dimensions;
  const std::string which = "HaloUpdate: grid " + std::to_string(g);
  if (depth.dimensions() != 0 && depth.dimensions() != n)
    raise(Errc::invalid_argument, which + " has " + std::to_string(n) + " dimension(s) but its depth (" +
                                      depth.describe() + ") gives " + std::to_string(depth.dimensions()) +
                                      "; expected one value per dimension and side");
  for (int d = 0; d < n; ++d) {
    for (int side = 0; side < 2; ++side) {
      const Index wanted = side == 0 ? depth.low(d) : depth.high(d), width = grid.halo.width[d];
      if (wanted >= 0 && wanted <= width) continue;
      raise(Errc::invalid_argument,
            which + ": depth " + std::to_string(wanted) + " on the " + (side == 0 ? "low" : "high") +
                " side of dimension " + std::to_string(d) +
                (wanted < 0 ? " is negative" : " exceeds the halo width " + std::to_string(width)) +
                "; expected 0 to " + std::to_string(width) + " layers");
    }
    layers.low[d] = depth.low(d);
    layers.high[d] = depth.high(d);
  }
  return layers;
}

// The pieces of one kind of ghost layers: what this rank receives, and sends to each rank.
struct Pieces {
  GhostLayers layers;
  std::vector<GhostPiece> receives;
  std::map<int, std::vector<GhostPiece>> sends;
};

Pieces pieces_of(const PatternCore& pattern, const GhostLayers& layers, int me) {
  Pieces p;
  p.layers = layers;
  ghost_pieces(pattern, layers, me, p.receives);
  std::vector<GhostPiece> theirs;
  for (int r : possible_receivers(pattern, layers, me)) {
    theirs.clear();
    ghost_pieces(pattern, layers, r, theirs);
    for (const GhostPiece& piece : theirs)
      if (piece.sender == me) p.sends[r].push_back(piece);
  }
  return p;
}

void build_plan(HaloUpdateState& u) {
  const GridState& first = *u.grids[0];
  World& world = *first.world;
  const PatternCore& pattern = first.pattern;
  const int me = world.rank(), n = pattern.dimensions();

  // Grids with the same ghost layers (most of them, usually) share their geometry.
  std::vector<Pieces> kinds;
  std::vector<std::size_t> kind_of(u.grids.size());
  for (std::size_t g = 0; g < u.grids.size(); ++g) {
    auto same = std::find_if(kinds.begin(), kinds.end(), [&](const Pieces& k) { return k.layers == u.layers[g]; });
    kind_of[g] = static_cast<std::size_t>(same - kinds.begin());
    if (same == kinds.end()) kinds.push_back(pieces_of(pattern, u.layers[g], me));
  }
  std::vector<int> neighbours;
  for (const Pieces& kind : kinds) {
    for (const auto& [rank, pieces] : kind.sends) neighbours.push_back(rank);
    for (const GhostPiece& piece : kind.receives) neighbours.push_back(piece.sender);
  }
  std::sort(neighbours.begin(), neighbours.end());
  neighbours.erase(std::unique(neighbours.begin(), neighbours.end()), neighbours.end());

  const bool per_variable = u.messages == HaloMessages::per_variable;
  const std::size_t groups = per_variable ? u.grids.size() : 1;
  u.plan.emplace(world, std::span<const int>(neighbours), groups);  // channel g: grid g (per_variable), else 0
  Plan& plan = *u.plan;
  for (std::size_t g = 0; g < u.grids.size(); ++g) {
    GridState& grid = *u.grids[g];
    const Pieces& kind = kinds[kind_of[g]];
    Region region = plan.add_memory(*grid.segment, grid.element_size);
    const std::size_t channel = per_variable ? g : 0;
    for (const GhostPiece& piece : kind.receives)
      plan.add_receive(channel, piece.sender, region, box_layout(grid.layout, n, piece.receiver_low, piece.extent));
    for (const auto& [rank, pieces] : kind.sends)
      for (const GhostPiece& piece : pieces)
        plan.add_send(channel, rank, region, box_layout(grid.layout, n, piece.sender_low, piece.extent));
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

// A moved-from HaloUpdate has no state: calling it is a use after move, an error rather than a crash.
HaloUpdateState& require_state(const std::shared_ptr<HaloUpdateState>& state, const char* call) {
  if (!state)
    raise(Errc::state, std::string(call) + ": this HaloUpdate was moved from (its state went to the HaloUpdate it "
                                           "was moved into); use that one");
  return *state;
}

// Finishes what start() (grid < 0) or start(grid) began, as the handle's wait() does. The flags go
// first: a finish that timed out is not tried again by the destructor (the peer may be dead).
void finish_in_flight(HaloUpdateState& u, long grid) {
  if (!u.in_flight.empty() && u.in_flight[0] == 2) {
    std::fill(u.in_flight.begin(), u.in_flight.end(), 0);
    u.plan->reverse_finish(std::span<const Combine>(u.reverse_how));
    return;
  }
  if (grid < 0) {
    std::fill(u.in_flight.begin(), u.in_flight.end(), 0);
    u.plan->finish();
    return;
  }
  const auto group = static_cast<std::size_t>(grid);
  u.in_flight[group] = 0;
  u.plan->finish(group);
}

}  // namespace

HaloUpdateState::~HaloUpdateState() {
  // Every rank destroys the update at the same point of the program, so every rank finishes here
  // what its handles would have: the neighbours' messages complete and no slot is left half used.
  // After MPI_Finalize the plan's windows are gone: nothing can be finished then.
  if (!plan || mpi_finalized()) return;
  // A wait already timed out: finishing would wait for the same dead peer again (WorldState::broken).
  if (!grids.empty() && grids[0]->world && world_state(*grids[0]->world).broken) return;
  try {
    const bool all = std::all_of(in_flight.begin(), in_flight.end(), [](char flag) { return flag != 0; });
    if (all && !in_flight.empty()) {
      finish_in_flight(*this, -1);  // start(), or start(g) of every grid: the plan's finish() covers both
    } else {
      for (std::size_t g = 0; g < in_flight.size(); ++g)
        if (in_flight[g]) finish_in_flight(*this, static_cast<long>(g));
    }
  } catch (const std::exception&) {
    // A destructor must not throw; a timeout has printed its diagnostic already.
  }
}

}  // namespace detail

namespace {
std::vector<HaloPart> whole_halos(std::span<GridBase* const> grids) {
  std::vector<HaloPart> parts;
  parts.reserve(grids.size());
  for (GridBase* grid : grids) parts.push_back({grid, HaloDepth()});
  return parts;
}
}  // namespace

HaloUpdate::HaloUpdate(std::span<GridBase* const> grids, HaloMessages messages)
    : HaloUpdate(std::span<const HaloPart>(whole_halos(grids)), messages) {}

HaloUpdate::HaloUpdate(std::span<const HaloPart> parts, HaloMessages messages)
    : state_(std::make_shared<detail::HaloUpdateState>()) {
  detail::HaloUpdateState& u = *state_;
  if (parts.empty()) raise(Errc::invalid_argument, "HaloUpdate: no grids given; expected at least one");
  if (messages != HaloMessages::per_neighbour && messages != HaloMessages::per_variable)
    raise(Errc::invalid_argument, "HaloUpdate: unknown HaloMessages value " + std::to_string(static_cast<int>(messages)));
  for (std::size_t g = 0; g < parts.size(); ++g) {
    if (!parts[g].grid) raise(Errc::invalid_argument, "HaloUpdate: grid " + std::to_string(g) + " is null");
    u.grids.push_back(&detail::grid_state(*parts[g].grid));
    u.depths.push_back(parts[g].depth);
  }
  u.messages = messages;
  detail::check_grids(u.grids);
  for (std::size_t g = 0; g < parts.size(); ++g) u.layers.push_back(detail::resolve(*u.grids[g], u.depths[g], g));
  detail::build_plan(u);
}

HaloUpdate::~HaloUpdate() = default;  // the state's destructor finishes an exchange in flight
HaloUpdate::HaloUpdate(HaloUpdate&&) noexcept = default;
HaloUpdate& HaloUpdate::operator=(HaloUpdate&&) noexcept = default;

void HaloUpdate::run() {
  detail::HaloUpdateState& u = detail::require_state(state_, "HaloUpdate::run");
  detail::require_idle(u, -1, "HaloUpdate::run");
  u.plan->exchange();
}

void HaloUpdate::run(std::size_t grid) {
  detail::HaloUpdateState& u = detail::require_state(state_, "HaloUpdate::run");
  const std::size_t channel = detail::group_of(u, grid, "HaloUpdate::run");
  detail::require_idle(u, static_cast<long>(grid), "HaloUpdate::run");
  u.plan->exchange(channel);
}

void HaloUpdate::run_shared(std::size_t thread, std::size_t threads) {
  detail::HaloUpdateState& u = detail::require_state(state_, "HaloUpdate::run_shared");
  if (threads == 0 || thread >= threads)
    raise(Errc::out_of_range, "HaloUpdate::run_shared: thread " + std::to_string(thread) + " is not in [0, " +
                                  std::to_string(threads) + ")");
  detail::require_idle(u, -1, "HaloUpdate::run_shared");
  detail::WorldState& w = detail::world_state(u.plan->world());
  // Every thread's cells are final before any thread's share sends them, and every ghost cell is in
  // before any thread reads one.
  u.team.arrive_and_wait(w, threads, "HaloUpdate::run_shared (before the exchange)");
  u.plan->exchange_share(thread, threads);
  u.team.arrive_and_wait(w, threads, "HaloUpdate::run_shared (after the exchange)");
}

HaloHandle HaloUpdate::start() {
  detail::HaloUpdateState& u = detail::require_state(state_, "HaloUpdate::start");
  detail::require_idle(u, -1, "HaloUpdate::start");
  u.plan->start();
  std::fill(u.in_flight.begin(), u.in_flight.end(), 1);
  return HaloHandle(state_, -1);
}

HaloHandle HaloUpdate::start(std::size_t grid) {
  detail::HaloUpdateState& u = detail::require_state(state_, "HaloUpdate::start");
  std::size_t group = detail::group_of(u, grid, "HaloUpdate::start");
  detail::require_idle(u, static_cast<long>(grid), "HaloUpdate::start");
  u.plan->start(group);
  u.in_flight[group] = 1;
  return HaloHandle(state_, static_cast<long>(grid));
}

namespace detail {
namespace {

// One Combine per grid (the plan's regions are the grids, in order), checked before anything moves.
std::vector<Combine> combines_of(const HaloUpdateState& u, std::span<const Combine> per_grid, const char* call) {
  if (per_grid.size() != u.grids.size())
    raise(Errc::invalid_argument, std::string(call) + ": " + std::to_string(per_grid.size()) +
                                      " combinations given for the " + std::to_string(u.grids.size()) +
                                      " grids of this update; give one per grid");
  return {per_grid.begin(), per_grid.end()};
}

std::vector<Combine> combines_of(const HaloUpdateState& u, ReduceOp op, const char* call) {
  std::vector<Combine> how;
  for (std::size_t g = 0; g < u.grids.size(); ++g) {
    if (u.grids[g]->scalar < 0)
      raise(Errc::invalid_argument, std::string(call) + ": grid " + std::to_string(g) + " holds elements of " +
                                        std::to_string(u.grids[g]->element_size) +
                                        " bytes that are not double, float, int32_t or int64_t; give a Combine "
                                        "per grid saying what they hold");
    how.push_back({op, static_cast<ScalarType>(u.grids[g]->scalar)});
  }
  return how;
}

// Idle, with the reverse plan built (the first time: collective, as every call of an update).
void prepare_reverse(HaloUpdateState& u, const char* call) {
  require_idle(u, -1, call);
  if (!u.plan->reverse_enabled()) u.plan->enable_reverse();
}

}  // namespace
}  // namespace detail

void HaloUpdate::reverse_run(ReduceOp op) {
  detail::HaloUpdateState& u = detail::require_state(state_, "HaloUpdate::reverse_run");
  const std::vector<Combine> how = detail::combines_of(u, op, "HaloUpdate::reverse_run");
  reverse_run(std::span<const Combine>(how));
}

void HaloUpdate::reverse_run(std::span<const Combine> per_grid) {
  detail::HaloUpdateState& u = detail::require_state(state_, "HaloUpdate::reverse_run");
  const std::vector<Combine> how = detail::combines_of(u, per_grid, "HaloUpdate::reverse_run");
  detail::prepare_reverse(u, "HaloUpdate::reverse_run");
  u.plan->reverse_exchange(std::span<const Combine>(how));
}

HaloHandle HaloUpdate::reverse_start(ReduceOp op) {
  detail::HaloUpdateState& u = detail::require_state(state_, "HaloUpdate::reverse_start");
  const std::vector<Combine> how = detail::combines_of(u, op, "HaloUpdate::reverse_start");
  return reverse_start(std::span<const Combine>(how));
}

HaloHandle HaloUpdate::reverse_start(std::span<const Combine> per_grid) {
  detail::HaloUpdateState& u = detail::require_state(state_, "HaloUpdate::reverse_start");
  std::vector<Combine> how = detail::combines_of(u, per_grid, "HaloUpdate::reverse_start");
  detail::prepare_reverse(u, "HaloUpdate::reverse_start");
  u.plan->reverse_start();
  u.reverse_how = std::move(how);
  std::fill(u.in_flight.begin(), u.in_flight.end(), 2);
  return HaloHandle(state_, -1);
}

std::size_t HaloUpdate::grids() const { return detail::require_state(state_, "HaloUpdate::grids").grids.size(); }

HaloDepth HaloUpdate::depth(std::size_t grid) const {
  const detail::HaloUpdateState& u = detail::require_state(state_, "HaloUpdate::depth");
  if (grid >= u.grids.size())
    raise(Errc::out_of_range, "HaloUpdate::depth: grid " + std::to_string(grid) + " is not in [0, " +
                                  std::to_string(u.grids.size()) + ") of this update");
  const detail::GhostLayers& layers = u.layers[grid];
  const auto n = static_cast<std::size_t>(layers.dimensions);
  return HaloDepth::low_high(std::span<const Index>(layers.low, n), std::span<const Index>(layers.high, n));
}

HaloMessages HaloUpdate::messages() const { return detail::require_state(state_, "HaloUpdate::messages").messages; }
const Plan& HaloUpdate::plan() const { return *detail::require_state(state_, "HaloUpdate::plan").plan; }

std::string HaloUpdate::describe() const {
  const detail::HaloUpdateState& u = detail::require_state(state_, "HaloUpdate::describe");
  std::ostringstream text;
  text << "halo update of " << u.grids.size() << " grid(s), "
       << (u.messages == HaloMessages::per_neighbour ? "one message per neighbour" : "one message per grid") << "\n";
  for (std::size_t g = 0; g < u.grids.size(); ++g) {
    text << "  grid " << g << ": halo " << detail::describe_halo(u.grids[g]->halo) << "; fills ";
    if (u.depths[g].whole())
      text << "the whole halo";
    else
      text << depth(g).describe();
    text << "\n";
  }
  text << u.plan->describe();
  return text.str();
}

HaloDepth HaloDepth::low_high(std::span<const Index> low, std::span<const Index> high) {
  if (low.size() != high.size())
    raise(Errc::invalid_argument, "HaloDepth::low_high: " + std::to_string(low.size()) + " low value(s) but " +
                                      std::to_string(high.size()) +
                                      " high value(s); expected one of each per dimension");
  if (low.empty()) raise(Errc::invalid_argument, "HaloDepth: no values given; expected one per dimension");
  HaloDepth depth;
  depth.whole_ = false;
  depth.dimensions_ = static_cast<int>(low.size());
  for (std::size_t d = 0; d < low.size() && d < static_cast<std::size_t>(max_dimensions); ++d) {
    depth.low_[d] = low[d];
    depth.high_[d] = high[d];
  }
  return depth;
}

std::string HaloDepth::describe() const {
  if (whole_) return "the whole halo";
  std::ostringstream text;
  auto list = [&](const Index* values) {
    for (int d = 0; d < std::min(dimensions_, max_dimensions); ++d) text << (d ? " x " : "") << values[d];
    if (dimensions_ > max_dimensions) text << " x ...";
  };
  const int shown = std::min(dimensions_, max_dimensions);
  const bool symmetric = std::equal(low_, low_ + shown, high_);
  if (dimensions_ == 0) {
    text << low_[0] << (low_[0] == 1 ? " layer" : " layers") << " on each side";
  } else if (symmetric) {
    list(low_);
    text << " on each side";
  } else {
    text << "low ";
    list(low_);
    text << ", high ";
    list(high_);
  }
  return text.str();
}

HaloHandle::HaloHandle(HaloHandle&& other) noexcept
    : state_(std::move(other.state_)), grid_(other.grid_), pending_(other.pending_) {
  other.pending_ = false;
}

HaloHandle& HaloHandle::operator=(HaloHandle&& other) noexcept {
  if (this != &other) {
    if (pending_ && !state_.expired()) {
      try {
        wait();
      } catch (const std::exception&) {
      }
    }
    state_ = std::move(other.state_);
    grid_ = other.grid_;
    pending_ = other.pending_;
    other.pending_ = false;
  }
  return *this;
}

HaloHandle::~HaloHandle() {
  // An expired update finished the exchange when it went: nothing is left to wait for or to touch.
  if (!pending_ || state_.expired()) return;
  try {
    wait();
  } catch (const std::exception&) {
    // A destructor must not throw; a timeout has printed its diagnostic already.
  }
}

void HaloHandle::wait() {
  if (!pending_) return;
  pending_ = false;
  const std::shared_ptr<detail::HaloUpdateState> u = state_.lock();
  state_.reset();
  if (!u)
    raise(Errc::state, "HaloHandle::wait: the HaloUpdate this handle was started on was destroyed (or assigned "
                       "another update) before wait(); its destructor finished the exchange, so nothing is left "
                       "to wait for. Wait for every handle before its HaloUpdate (or, for update_halo_async, its "
                       "Grid) goes");
  detail::finish_in_flight(*u, grid_);
}

}  // namespace ghostwire
