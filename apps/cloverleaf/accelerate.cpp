// SPDX-License-Identifier: BSD-3-Clause
// accelerate_kernel.f90: node velocities after half a step of the pressure and viscosity forces,
// the node's mass being the average of its four cells' masses.
// See docs/cloverleaf.md, "Kernels and exactness".
#include "kernels.hpp"

namespace cloverleaf {
namespace {

// Restrict parameters: GCC keeps them through inlining (not restrict locals or struct members),
// and the loop vectorises.
void accelerate_row(const double* __restrict d_dn, const double* __restrict d, const double* __restrict v_dn,
                    const double* __restrict v, const double* __restrict xarea_dn, const double* __restrict xarea,
                    const double* __restrict yarea, const double* __restrict p_dn, const double* __restrict p,
                    const double* __restrict q_dn, const double* __restrict q, const double* __restrict xvel0,
                    const double* __restrict yvel0, double* __restrict xvel1_out, double* __restrict yvel1_out,
                    double halfdt, Index j0, Index j1) {
  for (Index j = j0; j <= j1; ++j) {
    const double stepbymass_s =
        halfdt / ((d_dn[j - 1] * v_dn[j - 1] + d_dn[j] * v_dn[j] + d[j] * v[j] + d[j - 1] * v[j - 1]) * 0.25);
    double xvel1 = xvel0[j] - stepbymass_s * (xarea[j] * (p[j] - p[j - 1]) + xarea_dn[j] * (p_dn[j] - p_dn[j - 1]));
    double yvel1 = yvel0[j] - stepbymass_s * (yarea[j] * (p[j] - p_dn[j]) + yarea[j - 1] * (p[j - 1] - p_dn[j - 1]));
    xvel1 = xvel1 - stepbymass_s * (xarea[j] * (q[j] - q[j - 1]) + xarea_dn[j] * (q_dn[j] - q_dn[j - 1]));
    yvel1 = yvel1 - stepbymass_s * (yarea[j] * (q[j] - q_dn[j]) + yarea[j - 1] * (q[j - 1] - q_dn[j - 1]));
    xvel1_out[j] = xvel1;
    yvel1_out[j] = yvel1;
  }
}

}  // namespace

void accelerate(Chunk& c, double dt) {
  const double halfdt = 0.5 * dt;
  const Rows density0 = rows(c.density0), volume = rows(c.volume), xarea = rows(c.xarea), yarea = rows(c.yarea);
  const Rows pressure = rows(c.pressure), visc = rows(c.viscosity);
  const Rows xvel0 = rows(c.xvel0), yvel0 = rows(c.yvel0), xvel1 = rows(c.xvel1), yvel1 = rows(c.yvel1);
  for (Index k = c.y_min; k <= c.y_max + 1; ++k) {
    accelerate_row(density0[k - 1], density0[k], volume[k - 1], volume[k], xarea[k - 1], xarea[k], yarea[k],
                   pressure[k - 1], pressure[k], visc[k - 1], visc[k], xvel0[k], yvel0[k], xvel1[k], yvel1[k], halfdt,
                   c.x_min, c.x_max + 1);
  }
}

}  // namespace cloverleaf
