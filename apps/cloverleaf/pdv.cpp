// SPDX-License-Identifier: BSD-3-Clause
// PdV_kernel.f90 and revert_kernel.f90: the Lagrangian step's work done by pressure and viscosity
// as cells change volume. The predictor moves the faces with the step's starting velocities over
// half a step (the reference adds them twice and halves the flux: the same here, operation for
// operation); the corrector with the average of the starting and accelerated ones over a step.
//
// See docs/cloverleaf.md, "Kernels and exactness".
#include "kernels.hpp"

namespace cloverleaf {
namespace {

// Restrict parameters (GCC keeps them through inlining; restrict locals or struct members it does
// not honour, and then it would not vectorise the loop).
template <bool predict>
void pdv_row(const double* __restrict xarea, const double* __restrict yarea, const double* __restrict yarea_up,
             const double* __restrict volume, const double* __restrict density0, const double* __restrict energy0,
             const double* __restrict pressure, const double* __restrict viscosity, const double* __restrict x0,
             const double* __restrict x0_up, const double* __restrict x1, const double* __restrict x1_up,
             const double* __restrict y0, const double* __restrict y0_up, const double* __restrict y1,
             const double* __restrict y1_up, double* __restrict density1, double* __restrict energy1, double dt,
             Index j0, Index j1) {
  for (Index j = j0; j <= j1; ++j) {
    double left_flux = (xarea[j] * (x0[j] + x0_up[j] + x1[j] + x1_up[j])) * 0.25 * dt;
    double right_flux = (xarea[j + 1] * (x0[j + 1] + x0_up[j + 1] + x1[j + 1] + x1_up[j + 1])) * 0.25 * dt;
    double bottom_flux = (yarea[j] * (y0[j] + y0[j + 1] + y1[j] + y1[j + 1])) * 0.25 * dt;
    double top_flux = (yarea_up[j] * (y0_up[j] + y0_up[j + 1] + y1_up[j] + y1_up[j + 1])) * 0.25 * dt;
    if constexpr (predict) {
      left_flux = left_flux * 0.5;
      right_flux = right_flux * 0.5;
      bottom_flux = bottom_flux * 0.5;
      top_flux = top_flux * 0.5;
    }
    const double total_flux = right_flux - left_flux + top_flux - bottom_flux;
    const double volume_change_s = volume[j] / (volume[j] + total_flux);
    const double recip_volume = 1.0 / volume[j];
    const double energy_change = (pressure[j] / density0[j] + viscosity[j] / density0[j]) * total_flux * recip_volume;
    energy1[j] = energy0[j] - energy_change;
    density1[j] = density0[j] * volume_change_s;
  }
}

void copy_row(const double* __restrict from, double* __restrict to, Index j0, Index j1) {
  for (Index j = j0; j <= j1; ++j) to[j] = from[j];
}

}  // namespace

void pdv(Chunk& c, bool predict, double dt) {
  const Rows xarea = rows(c.xarea), yarea = rows(c.yarea), volume = rows(c.volume);
  const Rows density0 = rows(c.density0), energy0 = rows(c.energy0), pressure = rows(c.pressure);
  const Rows visc = rows(c.viscosity), density1 = rows(c.density1), energy1 = rows(c.energy1);
  const Rows xvel0 = rows(c.xvel0), yvel0 = rows(c.yvel0);
  const Rows xvel1 = rows(predict ? c.xvel0 : c.xvel1), yvel1 = rows(predict ? c.yvel0 : c.yvel1);
  // The predictor adds the starting velocities twice (the reference's arithmetic), the corrector
  // the starting and the accelerated ones.
  for (Index k = c.y_min; k <= c.y_max; ++k) {
    if (predict)
      pdv_row<true>(xarea[k], yarea[k], yarea[k + 1], volume[k], density0[k], energy0[k], pressure[k], visc[k],
                    xvel0[k], xvel0[k + 1], xvel1[k], xvel1[k + 1], yvel0[k], yvel0[k + 1], yvel1[k], yvel1[k + 1],
                    density1[k], energy1[k], dt, c.x_min, c.x_max);
    else
      pdv_row<false>(xarea[k], yarea[k], yarea[k + 1], volume[k], density0[k], energy0[k], pressure[k], visc[k],
                     xvel0[k], xvel0[k + 1], xvel1[k], xvel1[k + 1], yvel0[k], yvel0[k + 1], yvel1[k], yvel1[k + 1],
                     density1[k], energy1[k], dt, c.x_min, c.x_max);
  }
}

void revert(Chunk& c) {
  const Rows density0 = rows(c.density0), density1 = rows(c.density1);
  const Rows energy0 = rows(c.energy0), energy1 = rows(c.energy1);
  for (Index k = c.y_min; k <= c.y_max; ++k) {
    copy_row(density0[k], density1[k], c.x_min, c.x_max);
    copy_row(energy0[k], energy1[k], c.x_min, c.x_max);
  }
}

}  // namespace cloverleaf
