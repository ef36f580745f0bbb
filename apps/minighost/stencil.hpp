// SPDX-License-Identifier: BSD-3-Clause
// The Jacobi update of one variable: every owned cell becomes the average of its stencil points,
// read from the old values (ghosts included), written through a work array and copied back, as in
// the reference.
//
// The points are added in the reference's order and divided (not multiplied by a reciprocal), so an
// update is bit-for-bit the reference's and results compare to it far below the 1e-11 we promise.
//
// See docs/minighost.md, "Semantics".
#pragma once

#include <cstddef>

#include "field_view.hpp"
#include "problem_kinds.hpp"

namespace minighost {

// Scratch space apply_stencil needs for `field` (and any field of the same sizes and strides).
std::size_t stencil_work_elements(const FieldView& field);

// `work` holds at least stencil_work_elements(field) doubles and is only scratch space. Returns the sum of the updated
// owned cells (what local_interior_sum would give), added up while they are copied back: the
// conservation check then needs no second pass over the grid.
double apply_stencil(Stencil stencil, const FieldView& field, double* work);

}  // namespace minighost
