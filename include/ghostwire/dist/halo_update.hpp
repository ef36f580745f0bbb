// SPDX-License-Identifier: BSD-3-Clause
// HaloUpdate: one halo exchange of several grids, built once on a halo Plan and run every step.
//
//   HaloUpdate update({&u, &v, &w});                              // one message per neighbour
//   HaloUpdate update({&u, &v, &w}, HaloMessages::per_variable);  // one message per grid
//   update.run();                   // all grids
//   update.run(1);                  // only v (per_variable)
//   auto pending = update.start();  // ... compute on cells that need no ghost ...
//   pending.wait();
//
// Staggered fields and partial depths: each grid may have its own halo (widths, stencil,
// boundaries), and each may fill only some of its ghost layers, per dimension and side:
//
//   HaloUpdate staggered({{&density, 1},                                      // 1 layer on each side
//                         {&xvel, HaloDepth::low_high({2, 2}, {3, 3})},       // nodes (width 3): depth 2
//                         {&vol_flux_x, HaloDepth::low_high({2, 2}, {2, 3})}, // x faces (x: dimension 1)
//                         {&pressure}});                                      // its whole halo
//
// All grids of one update must have the same pattern (they may hold different types). Building it
// is collective; so is every run/start/wait, in the same order on every rank. The grids must
// outlive the update. Between start() and wait() this rank must not write the cells its
// neighbours read (the owned cells within the depth of its block's faces) nor read its ghost
// cells. A run allocates nothing.
//
// Invariant: an update's state lives as long as the HaloUpdate that owns it (moves carry it along),
// and is never freed with an exchange in flight: the destructor finishes it, as every rank does.
// A handle refers to that state without owning it, so a moved-from update and a handle whose
// update is gone raise Errc::state instead of touching freed memory (docs/dist.md, "Moves,
// handles and destruction"; docs/runtime.md, "Misuse catalogue").
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "ghostwire/combine.hpp"
#include "ghostwire/dist/box.hpp"

namespace ghostwire {

class Plan;
class GridBase;

namespace detail {
struct HaloUpdateState;
}

enum class HaloMessages {
  per_neighbour,  // all grids' cells for a neighbour in one message (miniGhost's BSPMA)
  per_variable,   // each grid its own messages, which can also be exchanged alone (SVAF)
};

// Which ghost layers an update fills in one grid: per dimension, how many layers next to the owned
// cells on the low side and on the high side, each at most the grid's halo width there (checked when
// the update is built). Edges and corners (Stencil::full) cover exactly the chosen layers of both
// dimensions they lie in.
//
//   HaloDepth()                           every layer of the grid's halo (the default)
//   HaloDepth(1)                          1 layer on both sides of every dimension
//   HaloDepth::each({1, 2})               per dimension, both sides
//   HaloDepth::low_high({2, 2}, {3, 3})   per dimension and side: a node-centred field whose block
//                                         holds one more layer above (width 3: low 2, high 3)
class HaloDepth {
 public:
  static constexpr int max_dimensions = 3;

  HaloDepth() = default;
  // Implicit, so that {&grid, 1} reads "grid, 1 layer".
  HaloDepth(Index layers) noexcept : whole_(false) {  // NOLINT(google-explicit-constructor)
    for (int d = 0; d < max_dimensions; ++d) low_[d] = high_[d] = layers;
  }
  static HaloDepth each(std::initializer_list<Index> layers) { return low_high(layers, layers); }
  static HaloDepth low_high(std::initializer_list<Index> low, std::initializer_list<Index> high) {
    return low_high(std::span<const Index>(low.begin(), low.size()), std::span<const Index>(high.begin(), high.size()));
  }
  template <std::size_t N>
  static HaloDepth each(const std::array<Index, N>& layers) {
    return low_high(std::span<const Index>(layers), std::span<const Index>(layers));
  }
  template <std::size_t N>
  static HaloDepth low_high(const std::array<Index, N>& low, const std::array<Index, N>& high) {
    return low_high(std::span<const Index>(low), std::span<const Index>(high));
  }
  // Throws Error(invalid_argument) if low and high differ in length or are empty.
  static HaloDepth low_high(std::span<const Index> low, std::span<const Index> high);

  bool whole() const noexcept { return whole_; }  // the grid's whole halo
  // How many dimensions the values are given for (one per dimension of the grid, checked when the
  // update is built); 0 for HaloDepth() and HaloDepth(layers), which fit any grid.
  int dimensions() const noexcept { return dimensions_; }
  // Layers in dimension d (< max_dimensions); HaloDepth(layers) has the same in every dimension.
  Index low(int d) const noexcept { return low_[d]; }
  Index high(int d) const noexcept { return high_[d]; }
  // "the whole halo", "1 layer on each side", "low 2 x 2, high 3 x 3", "2 x 1 on each side".
  std::string describe() const;
  bool operator==(const HaloDepth&) const = default;

 private:
  bool whole_ = true;
  int dimensions_ = 0;  // values given per side (more than max_dimensions: an error when built)
  Index low_[max_dimensions] = {0, 0, 0};
  Index high_[max_dimensions] = {0, 0, 0};
};

// One grid of an update and the ghost layers to fill in it.
struct HaloPart {
  // Implicit, so that a list of parts reads {{&u, 1}, {&v}}.
  HaloPart(GridBase* which, HaloDepth layers = HaloDepth()) noexcept  // NOLINT(google-explicit-constructor)
      : grid(which), depth(layers) {}
  GridBase* grid;
  HaloDepth depth;  // default: the grid's whole halo
};

// An exchange under way: wait() fills the ghost cells. Destroying it unwaited waits. It stays
// valid when its HaloUpdate is moved; once that update is destroyed (which finishes the exchange),
// wait() raises Errc::state and the handle's destructor does nothing.
class HaloHandle {
 public:
  HaloHandle() = default;
  HaloHandle(HaloHandle&& other) noexcept;
  HaloHandle& operator=(HaloHandle&& other) noexcept;
  ~HaloHandle();

  void wait();
  // From start() until wait() (or until moved from), whether or not its update still exists.
  bool pending() const noexcept { return pending_; }

 private:
  friend class HaloUpdate;
  HaloHandle(std::weak_ptr<detail::HaloUpdateState> state, long grid) noexcept
      : state_(std::move(state)), grid_(grid), pending_(true) {}
  std::weak_ptr<detail::HaloUpdateState> state_;  // not owned: the HaloUpdate may go first
  long grid_ = -1;                                // -1: all grids
  bool pending_ = false;
};

class HaloUpdate {
 public:
  HaloUpdate(std::span<GridBase* const> grids, HaloMessages messages = HaloMessages::per_neighbour);
  HaloUpdate(std::initializer_list<GridBase*> grids, HaloMessages messages = HaloMessages::per_neighbour)
      : HaloUpdate(std::span<GridBase* const>(grids.begin(), grids.size()), messages) {}
  // Each grid with the ghost layers to fill ({&grid} or {&grid, HaloDepth()}: all of them).
  HaloUpdate(std::span<const HaloPart> parts, HaloMessages messages = HaloMessages::per_neighbour);
  HaloUpdate(std::initializer_list<HaloPart> parts, HaloMessages messages = HaloMessages::per_neighbour)
      : HaloUpdate(std::span<const HaloPart>(parts.begin(), parts.size()), messages) {}
  // Collective. An exchange still in flight (a handle not yet waited for) is finished first; its
  // handle's wait() then raises Errc::state.
  ~HaloUpdate();
  // A move carries the state, and the handles out, to the new object; assigning over an update
  // destroys its old state as the destructor does (collective).
  HaloUpdate(HaloUpdate&&) noexcept;
  HaloUpdate& operator=(HaloUpdate&&) noexcept;

  // Every call below raises Errc::state on a moved-from update.
  void run();
  void run(std::size_t grid);  // per_variable only
  // run() by a team of threads (an OpenMP parallel region): every thread of the team calls it with
  // its own `thread` in [0, threads); each sends and receives its share of the messages
  // (Plan::exchange_share). It waits for the whole team before the exchange (every thread's cells
  // final) and after it: on return every ghost cell is filled, on every thread.
  void run_shared(std::size_t thread, std::size_t threads);
  [[nodiscard]] HaloHandle start();
  [[nodiscard]] HaloHandle start(std::size_t grid);

  // The reverse update (docs/dist.md, "Reverse updates"; AMReX's SumBoundary): every ghost cell this
  // update fills is sent back to the cell it is filled from and combined into it, the cell's own
  // value first, then the ghosts' in a fixed order (by rank, then message order): the same bits run
  // to run. With ReduceOp::sum, deposits into ghost cells (particles, assembly) reach their owners.
  // Every grid combines as its element type (double, float, int32_t, int64_t); for other element
  // types give one Combine per grid. The first reverse call builds the reverse plan (collective,
  // like every call). A handle from reverse_start is finished by its wait() as start()'s is.
  void reverse_run(ReduceOp op = ReduceOp::sum);
  void reverse_run(std::span<const Combine> per_grid);
  [[nodiscard]] HaloHandle reverse_start(ReduceOp op = ReduceOp::sum);
  [[nodiscard]] HaloHandle reverse_start(std::span<const Combine> per_grid);

  std::size_t grids() const;
  // The layers filled in grid `grid`, resolved against its halo: low_high(...) over its dimensions.
  HaloDepth depth(std::size_t grid) const;
  HaloMessages messages() const;
  const Plan& plan() const;
  std::string describe() const;  // each grid's halo and depth; neighbours, messages, bytes, paths

 private:
  // Shared only with weak references (the handles): this object is the one owner.
  std::shared_ptr<detail::HaloUpdateState> state_;
};

}  // namespace ghostwire
