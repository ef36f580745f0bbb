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
#pragma once

#include "decomposition.hpp"
#include "field_view.hpp"
#include "problem_kinds.hpp"

namespace minighost {

double boundary_outflow(Stencil stencil, const FieldView& field, const Decomposition& decomposition);

}  // namespace minighost
