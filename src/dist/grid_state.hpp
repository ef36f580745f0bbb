// SPDX-License-Identifier: BSD-3-Clause
// What a grid holds behind its typed face, and how any rank's block is laid out in its segment:
// row-major, padded by the halo width on both sides of every dimension. Invariant: every rank
// computes every rank's layout alike (it depends only on extents, halo and element size).
// Internal: reached only through detail::grid_state. docs/dist.md, "The Jacobi heat equation,
// walked through" (the layout) and "Grids".
#pragma once

#include <memory>

#include "ghostwire/dist/grid.hpp"
#include "ghostwire/dist/halo_update.hpp"
#include "ghostwire/dist/pattern_core.hpp"
#include "ghostwire/segment.hpp"
#include "runtime/team_barrier.hpp"

namespace ghostwire::detail {

struct BlockLayout {
  Index low[3] = {0, 0, 0};     // global coordinates of the first owned cell
  Index extent[3] = {0, 0, 0};  // owned cells
  Index stride[3] = {0, 0, 0};  // elements
  Index origin = 0;             // elements from the start of the part to local cell (0, ...)
  Index elements = 0;           // the whole padded block

  Index offset(const Index* local, int dimensions) const noexcept {
    Index at = origin;
    for (int d = 0; d < dimensions; ++d) at += local[d] * stride[d];
    return at;
  }
};

// `halo` null: no ghost cells (arrays). Grids of two or more dimensions pad their rows so that
// every row's local cell 0 starts a cache line: vector loads and stores of a row's owned cells then
// never straddle lines, and neither do the loads of the rows and planes around them: rows are
// rounded up to whole lines and the block is shifted to align cell 0, the least padding that does
// it. Unless that pads a row by more than 1/most_padding of its length: short rows (miniGhost's
// 10-cell rows, 12 with ghosts, would take 16) stay unpadded, since kernels over them sweep whole
// planes as one flat run, padding included (what each choice gained: docs/dist.md, the layout).
// The padding depends only on the rank's extents, the halo and the element size, so every rank
// computes every layout.
inline constexpr std::size_t cache_line = 64;
inline constexpr Index most_padding = 8;
BlockLayout block_layout(const PatternCore& pattern, const HaloSpec* halo, int rank, std::size_t element_size);

struct GridState {
  World* world = nullptr;
  PatternCore pattern;
  HaloSpec halo;
  std::size_t element_size = 0;
  int scalar = -1;  // the elements' ScalarType, -1 if none (reverse updates need a Combine then)
  BlockLayout layout;  // mine
  std::unique_ptr<Segment> segment;
  std::byte* origin = nullptr;
  std::unique_ptr<HaloUpdate> own_update;  // built by the first update_halo; goes before the segment
  TeamBarrier team;  // update_halo_shared's threads, while own_update is made
};

// Declared in the public header as GridBase's friends, defined only here: internal code reaches the
// state, users cannot.
inline GridState& grid_state(GridBase& grid) noexcept { return *grid.state_; }
inline const GridState& grid_state(const GridBase& grid) noexcept { return *grid.state_; }

std::string describe_halo(const HaloSpec& halo);

}  // namespace ghostwire::detail
