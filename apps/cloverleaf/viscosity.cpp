// SPDX-License-Identifier: BSD-3-Clause
// viscosity_kernel.f90: artificial viscosity where the flow is compressed along the pressure gradient.
// As the reference, diry takes its sign from pgradx (not pgrady).
// See docs/cloverleaf.md, "Kernels and exactness".
#include <algorithm>
#include <cmath>

#include "kernels.hpp"

namespace cloverleaf {
namespace {

struct ViscosityRow {
  const double* __restrict celldx;
  double celldy;
  double celldy_up;  // celldy(k+1)
  const double* __restrict density0;
  const double* __restrict p_down;  // pressure rows k-1, k, k+1
  const double* __restrict p;
  const double* __restrict p_up;
  const double* __restrict xv;  // velocity rows k and k+1
  const double* __restrict xv_up;
  const double* __restrict yv;
  const double* __restrict yv_up;
  double* __restrict viscosity;
};

void viscosity_row(const ViscosityRow& r, Index j0, Index j1) {
  const double* __restrict celldx = r.celldx;
  const double* __restrict xv = r.xv;
  const double* __restrict xv_up = r.xv_up;
  const double* __restrict yv = r.yv;
  const double* __restrict yv_up = r.yv_up;
  const double* __restrict p = r.p;
  double* __restrict visc = r.viscosity;
  const double celldy = r.celldy;
  for (Index j = j0; j <= j1; ++j) {
    const double ugrad = (xv[j + 1] + xv_up[j + 1]) - (xv[j] + xv_up[j]);
    const double vgrad = (yv_up[j] + yv_up[j + 1]) - (yv[j] + yv[j + 1]);
    const double div = (celldx[j] * (ugrad) + celldy * (vgrad));
    const double strain2 = 0.5 * (xv_up[j] + xv_up[j + 1] - xv[j] - xv[j + 1]) / celldy +
                           0.5 * (yv[j + 1] + yv_up[j + 1] - yv[j] - yv_up[j]) / celldx[j];
    double pgradx = (p[j + 1] - p[j - 1]) / (celldx[j] + celldx[j + 1]);
    double pgrady = (r.p_up[j] - r.p_down[j]) / (celldy + r.celldy_up);
    const double pgradx2 = pgradx * pgradx;
    const double pgrady2 = pgrady * pgrady;
    const double limiter =
        ((0.5 * (ugrad) / celldx[j]) * pgradx2 + (0.5 * (vgrad) / celldy) * pgrady2 + strain2 * pgradx * pgrady) /
        std::max(pgradx2 + pgrady2, 1.0e-16);
    if ((limiter > 0.0) || (div >= 0.0)) {
      visc[j] = 0.0;
    } else {
      double dirx = 1.0;
      if (pgradx < 0.0) dirx = -1.0;
      pgradx = dirx * std::max(1.0e-16, std::abs(pgradx));
      double diry = 1.0;
      if (pgradx < 0.0) diry = -1.0;
      pgrady = diry * std::max(1.0e-16, std::abs(pgrady));
      const double pgrad = std::sqrt(pgradx * pgradx + pgrady * pgrady);
      const double xgrad = std::abs(celldx[j] * pgrad / pgradx);
      const double ygrad = std::abs(celldy * pgrad / pgrady);
      const double grad = std::min(xgrad, ygrad);
      const double grad2 = grad * grad;
      visc[j] = 2.0 * r.density0[j] * grad2 * limiter * limiter;
    }
  }
}

}  // namespace

void viscosity(Chunk& c) {
  const Rows density0 = rows(c.density0), pressure = rows(c.pressure), visc = rows(c.viscosity);
  const Rows xvel0 = rows(c.xvel0), yvel0 = rows(c.yvel0);
  for (Index k = c.y_min; k <= c.y_max; ++k) {
    const ViscosityRow r{c.celldx.at_zero(), c.celldy[k], c.celldy[k + 1], density0[k], pressure[k - 1], pressure[k],
                         pressure[k + 1],    xvel0[k],    xvel0[k + 1],    yvel0[k],    yvel0[k + 1],    visc[k]};
    viscosity_row(r, c.x_min, c.x_max);
  }
}

}  // namespace cloverleaf
