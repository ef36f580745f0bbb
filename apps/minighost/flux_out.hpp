// SPDX-License-Identifier: BSD-3-Clause
// Flux out: the heat one Jacobi update moves across the physical boundary, where the ghost cells
// stay 0 (Dirichlet). Adding it up over the run is what makes conservation checkable: grid sum +
// flux out = heat injected.
//
// An owned cell c gives value(c) / points to every stencil point around it; the share landing on
// cells outside the global grid leaves for good. So the step's outflow is
//   sum over owned cells c on the physical boundary of value(c) * outside(c) / points,
// where outside(c) counts c's stencil points outside the global grid. This is the reference's
// quantity (it sums the same shares grouped by the ghost cell receiving them) without reading any
// ghost cell, so it needs nothing from the halo exchange. Call it before the update.
//
// See docs/minighost.md, "Semantics".
#pragma once

#include <vector>

#include "decomposition.hpp"
#include "field_view.hpp"
#include "problem_kinds.hpp"

namespace minighost {

// The outside(c) counts depend only on the stencil and on where this rank's block touches the
// physical boundary, so the losing cells and their counts are listed once; each step only gathers,
// multiplies and adds (it runs for every variable every step, as often as the stencil).
class BoundaryOutflow {
 public:
  BoundaryOutflow(Stencil stencil, const Decomposition& decomposition);

  // This rank's outflow of one update of `field` (a block of the decomposition's size). Not
  // thread-safe: it keeps the cells' offsets for the field's strides.
  double operator()(const FieldView& field) const;

 private:
  struct Cell {
    int i, j, k;
  };
  std::vector<Cell> cells_;       // owned cells with outside(c) > 0, in storage order
  std::vector<double> weights_;   // their outside(c)
  mutable std::vector<std::ptrdiff_t> offsets_;  // their offsets from cell (0, 0, 0) for...
  mutable std::ptrdiff_t stride_y_ = -1, stride_z_ = -1;  // ...these strides
  int nx_ = 0, ny_ = 0, nz_ = 0;
  int points_ = 1;
};

}  // namespace minighost
