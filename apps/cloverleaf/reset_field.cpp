// SPDX-License-Identifier: BSD-3-Clause
// reset_field_kernel.f90: the advected fields become the next step's starting fields.
// See docs/cloverleaf.md, "Kernels and exactness".
#include "kernels.hpp"

namespace cloverleaf {
namespace {

void copy_row(const double* __restrict from, double* __restrict to, Index j0, Index j1) {
  for (Index j = j0; j <= j1; ++j) to[j] = from[j];
}

}  // namespace

void reset_field(Chunk& c) {
  const Rows density0 = rows(c.density0), density1 = rows(c.density1);
  const Rows energy0 = rows(c.energy0), energy1 = rows(c.energy1);
  const Rows xvel0 = rows(c.xvel0), xvel1 = rows(c.xvel1), yvel0 = rows(c.yvel0), yvel1 = rows(c.yvel1);
  for (Index k = c.y_min; k <= c.y_max; ++k) {
    copy_row(density1[k], density0[k], c.x_min, c.x_max);
    copy_row(energy1[k], energy0[k], c.x_min, c.x_max);
  }
  for (Index k = c.y_min; k <= c.y_max + 1; ++k) {
    copy_row(xvel1[k], xvel0[k], c.x_min, c.x_max + 1);
    copy_row(yvel1[k], yvel0[k], c.x_min, c.x_max + 1);
  }
}

}  // namespace cloverleaf
