// SPDX-License-Identifier: BSD-3-Clause
// GridBase: validation, storage and the single-grid halo update of every Grid<T, N>.
#include <sstream>

#include "ghostwire/error.hpp"
#include "grid_state.hpp"

namespace ghostwire {
namespace detail {

BlockLayout block_layout(const PatternCore& pattern, const HaloSpec* halo, int rank, std::size_t element_size) {
  BlockLayout b;
  const int n = pattern.dimensions();
  int units[max_dimensions];
  pattern.units_of(rank, units);
  Index padded[max_dimensions], lead[max_dimensions];
  for (int d = 0; d < n; ++d) {
    const DimensionMap& m = pattern.map(d);
    b.extent[d] = m.local_extent(units[d]);
    b.low[d] = std::min(m.extent, static_cast<Index>(units[d]) * m.block);
    lead[d] = halo ? halo->width[d] : 0;
    padded[d] = b.extent[d] + 2 * lead[d];
  }
  // Rows rounded up to whole cache lines, the block shifted so that local cell 0 starts a line
  // (the ghost cells before it end the line before): every row's cell 0 is then on a line start
  // with the least padding. (A whole line of lead before each row, as long rows once had, stores
  // 112 doubles per row for miniGhost's 100-cell rows instead of 104: memory traffic a memory-bound
  // stencil pays for; docs/dist.md.)
  const int last = n - 1;
  Index per_line = 0;
  if (halo && n >= 2 && element_size > 0 && cache_line % element_size == 0) {
    per_line = static_cast<Index>(cache_line / element_size);
    const Index rounded = (padded[last] + per_line - 1) / per_line * per_line;
    if ((rounded - padded[last]) * most_padding <= rounded) {
      padded[last] = rounded;
    } else {
      per_line = 0;  // short rows stay as they are: see most_padding
    }
  }
  Index stride = 1;
  for (int d = n - 1; d >= 0; --d) {
    b.stride[d] = stride;
    b.origin += lead[d] * stride;
    stride *= padded[d];
  }
  b.elements = stride;
  if (per_line > 0) {
    const Index shift = (per_line - b.origin % per_line) % per_line;
    b.origin += shift;
    b.elements += shift;
  }
  for (int d = 0; d < n; ++d)
    if (b.extent[d] == 0) b.elements = b.origin = 0;  // an empty block stores nothing, ghosts included
  return b;
}

std::string describe_halo(const HaloSpec& halo) {
  std::ostringstream text;
  text << "width ";
  for (int d = 0; d < halo.dimensions; ++d) text << (d ? " x " : "") << halo.width[d];
  text << ", " << (halo.stencil == Stencil::faces ? "faces only" : "faces, edges and corners") << ", periodic ";
  for (int d = 0; d < halo.dimensions; ++d) text << (d ? " x " : "") << (halo.periodic[d] ? "yes" : "no");
  return text.str();
}

}  // namespace detail

GridBase::GridBase(World& world, const detail::PatternCore& pattern, const detail::HaloSpec& halo,
                   std::size_t element_size, int scalar)
    : state_(std::make_unique<detail::GridState>()) {
  using namespace detail;
  if (!pattern.blocked())
    raise(Errc::invalid_argument, "Grid: the pattern (" + pattern.describe() +
                                      ") is not blocked; a grid needs BLOCKED or NONE in every dimension "
                                      "(Array takes any 1-D distribution)");
  if (pattern.team_size() != world.size())
    raise(Errc::invalid_argument, "Grid: the pattern's team has " + std::to_string(pattern.team_size()) +
                                      " ranks but the world has " + std::to_string(world.size()) +
                                      "; expected a team of world.size() ranks");
  for (int d = 0; d < halo.dimensions; ++d)
    if (halo.width[d] < 0)
      raise(Errc::invalid_argument, "Grid: the halo width of dimension " + std::to_string(d) + " is " +
                                        std::to_string(halo.width[d]) + "; expected >= 0");
  GridState& s = *state_;
  s.world = &world;
  s.pattern = pattern;
  s.halo = halo;
  s.element_size = element_size;
  s.scalar = scalar;
  s.layout = block_layout(pattern, &halo, world.rank(), element_size);
  s.segment = std::make_unique<Segment>(world, static_cast<std::size_t>(s.layout.elements) * element_size);
  s.origin = s.segment->data() + static_cast<std::size_t>(s.layout.origin) * element_size;
}

GridBase::GridBase(GridBase&&) noexcept = default;
GridBase& GridBase::operator=(GridBase&&) noexcept = default;
GridBase::~GridBase() = default;

World& GridBase::world() const noexcept { return *state_->world; }
Segment& GridBase::segment() const noexcept { return *state_->segment; }
std::size_t GridBase::element_size() const noexcept { return state_->element_size; }
std::byte* GridBase::origin() const noexcept { return state_->origin; }
Index GridBase::layout_stride(int d) const noexcept { return state_->layout.stride[d]; }
Index GridBase::layout_extent(int d) const noexcept { return state_->layout.extent[d]; }
Index GridBase::layout_offset(int d) const noexcept { return state_->layout.low[d]; }

static HaloUpdate& own_update(GridBase& grid) {
  detail::GridState& s = detail::grid_state(grid);
  if (!s.own_update) {
    GridBase* self = &grid;
    s.own_update = std::make_unique<HaloUpdate>(std::span<GridBase* const>(&self, 1));
  }
  return *s.own_update;
}

void GridBase::update_halo() { own_update(*this).run(); }

void GridBase::reverse_halo(ReduceOp op) { own_update(*this).reverse_run(op); }

void GridBase::reverse_halo(Combine how) { own_update(*this).reverse_run(std::span<const Combine>(&how, 1)); }

void GridBase::update_halo_shared(std::size_t thread, std::size_t threads) {
  detail::GridState& s = *state_;
  if (threads == 0 || thread >= threads)
    raise(Errc::out_of_range, "Grid::update_halo_shared: thread " + std::to_string(thread) + " is not in [0, " +
                                  std::to_string(threads) + ")");
  if (!s.own_update) {
    // Nobody writes own_update before every thread has read it here: thread 0 makes it (collective
    // over the ranks) between two waits of the team.
    detail::WorldState& w = detail::world_state(*s.world);
    s.team.arrive_and_wait(w, threads, "Grid::update_halo_shared (the first call)");
    if (thread == 0) {
      GridBase* self = this;
      s.own_update = std::make_unique<HaloUpdate>(std::span<GridBase* const>(&self, 1));
    }
    s.team.arrive_and_wait(w, threads, "Grid::update_halo_shared (the first call)");
  }
  s.own_update->run_shared(thread, threads);
}

HaloHandle GridBase::update_halo_async() { return own_update(*this).start(); }

void GridBase::barrier() { state_->world->barrier(); }

std::string GridBase::describe() const {
  const detail::GridState& s = *state_;
  std::ostringstream text;
  text << "grid of " << s.element_size << "-byte elements, " << s.pattern.describe() << ", halo "
       << detail::describe_halo(s.halo) << "; rank " << s.world->rank() << " owns ";
  for (int d = 0; d < s.pattern.dimensions(); ++d)
    text << (d ? " x " : "") << "[" << s.layout.low[d] << ", " << s.layout.low[d] + s.layout.extent[d] << ")";
  return text.str();
}

GlobalAddress GridBase::address(const Index* global) const {
  const detail::GridState& s = *state_;
  const int n = s.pattern.dimensions();
  for (int d = 0; d < n; ++d) {
    Index extent = s.pattern.map(d).extent;
    if (global[d] < 0 || global[d] >= extent) {
      std::ostringstream text;
      text << "Grid::at: index {";
      for (int e = 0; e < n; ++e) text << (e ? ", " : "") << global[e];
      text << "} is outside the grid's extents {";
      for (int e = 0; e < n; ++e) text << (e ? ", " : "") << s.pattern.map(e).extent;
      text << "} (dimension " << d << ": " << global[d] << " is not in [0, " << extent << "))";
      raise(Errc::out_of_range, text.str());
    }
  }
  int rank = s.pattern.owner(global);
  detail::BlockLayout b = detail::block_layout(s.pattern, &s.halo, rank, s.element_size);
  Index local[3];
  for (int d = 0; d < n; ++d) local[d] = global[d] - b.low[d];
  GlobalAddress a;
  a.segment = s.segment.get();
  a.rank = rank;
  a.offset = static_cast<std::size_t>(b.offset(local, n)) * s.element_size;
  if (std::byte* peer = s.segment->peer_data(rank)) a.direct = peer + a.offset;
  return a;
}

}  // namespace ghostwire
