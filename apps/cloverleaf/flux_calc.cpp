// SPDX-License-Identifier: BSD-3-Clause
// flux_calc_kernel.f90: the volume swept through each face during the step, from the average of the
// starting and accelerated velocities of its two nodes.
// See docs/cloverleaf.md, "Kernels and exactness".
#include "kernels.hpp"

namespace cloverleaf {
namespace {

void flux_row(const double* __restrict xarea, const double* __restrict yarea, const double* __restrict xv0,
              const double* __restrict xv0_up, const double* __restrict xv1, const double* __restrict xv1_up,
              const double* __restrict yv0, const double* __restrict yv1, double* __restrict vol_flux_x,
              double* __restrict vol_flux_y, double dt, Index j0, Index j1) {
  for (Index j = j0; j <= j1; ++j) {
    vol_flux_x[j] = 0.25 * dt * xarea[j] * (xv0[j] + xv0_up[j] + xv1[j] + xv1_up[j]);
    vol_flux_y[j] = 0.25 * dt * yarea[j] * (yv0[j] + yv0[j + 1] + yv1[j] + yv1[j + 1]);
  }
}

}  // namespace

void flux_calc(Chunk& c, double dt) {
  const Rows xarea = rows(c.xarea), yarea = rows(c.yarea);
  const Rows xvel0 = rows(c.xvel0), xvel1 = rows(c.xvel1), yvel0 = rows(c.yvel0), yvel1 = rows(c.yvel1);
  const Rows vol_flux_x = rows(c.vol_flux_x), vol_flux_y = rows(c.vol_flux_y);
  for (Index k = c.y_min; k <= c.y_max + 1; ++k) {
    flux_row(xarea[k], yarea[k], xvel0[k], xvel0[k + 1], xvel1[k], xvel1[k + 1], yvel0[k], yvel1[k], vol_flux_x[k],
             vol_flux_y[k], dt, c.x_min, c.x_max + 1);
  }
}

}  // namespace cloverleaf
