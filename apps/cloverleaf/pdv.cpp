// PdV_kernel.f90 and revert_kernel.f90: the Lagrangian step's work done by pressure and viscosity
// as cells change volume. The predictor moves the faces with the step's starting velocities over
// half a step; the corrector with the average of the starting and accelerated ones over a step.
#include "kernels.hpp"

namespace cloverleaf {
namespace {

struct PdvRow {
  const double* __restrict xarea;
  const double* __restrict yarea;
  const double* __restrict yarea_up;
  const double* __restrict volume;
  const double* __restrict density0;
  const double* __restrict energy0;
  const double* __restrict pressure;
  const double* __restrict viscosity;
  const double* __restrict xa;  // the velocities the faces move with: rows k and k+1 of
  const double* __restrict xa_up;  // xvel0 and, for the corrector, xvel1 (b)
  const double* __restrict xb;
  const double* __restrict xb_up;
  const double* __restrict ya;
  const double* __restrict ya_up;
  const double* __restrict yb;
  const double* __restrict yb_up;
  double* __restrict density1;
  double* __restrict energy1;
};

void predictor_row(const PdvRow& r, double dt, Index j0, Index j1) {
  const double* __restrict x = r.xa;
  const double* __restrict x_up = r.xa_up;
  const double* __restrict y = r.ya;
  const double* __restrict y_up = r.ya_up;
  for (Index j = j0; j <= j1; ++j) {
    const double left_flux = (r.xarea[j] * (x[j] + x_up[j] + x[j] + x_up[j])) * 0.25 * dt * 0.5;
    const double right_flux = (r.xarea[j + 1] * (x[j + 1] + x_up[j + 1] + x[j + 1] + x_up[j + 1])) * 0.25 * dt * 0.5;
    const double bottom_flux = (r.yarea[j] * (y[j] + y[j + 1] + y[j] + y[j + 1])) * 0.25 * dt * 0.5;
    const double top_flux = (r.yarea_up[j] * (y_up[j] + y_up[j + 1] + y_up[j] + y_up[j + 1])) * 0.25 * dt * 0.5;
    const double total_flux = right_flux - left_flux + top_flux - bottom_flux;
    const double volume_change_s = r.volume[j] / (r.volume[j] + total_flux);
    const double recip_volume = 1.0 / r.volume[j];
    const double energy_change =
        (r.pressure[j] / r.density0[j] + r.viscosity[j] / r.density0[j]) * total_flux * recip_volume;
    r.energy1[j] = r.energy0[j] - energy_change;
    r.density1[j] = r.density0[j] * volume_change_s;
  }
}

void corrector_row(const PdvRow& r, double dt, Index j0, Index j1) {
  const double* __restrict x0 = r.xa;
  const double* __restrict x0_up = r.xa_up;
  const double* __restrict x1 = r.xb;
  const double* __restrict x1_up = r.xb_up;
  const double* __restrict y0 = r.ya;
  const double* __restrict y0_up = r.ya_up;
  const double* __restrict y1 = r.yb;
  const double* __restrict y1_up = r.yb_up;
  for (Index j = j0; j <= j1; ++j) {
    const double left_flux = (r.xarea[j] * (x0[j] + x0_up[j] + x1[j] + x1_up[j])) * 0.25 * dt;
    const double right_flux = (r.xarea[j + 1] * (x0[j + 1] + x0_up[j + 1] + x1[j + 1] + x1_up[j + 1])) * 0.25 * dt;
    const double bottom_flux = (r.yarea[j] * (y0[j] + y0[j + 1] + y1[j] + y1[j + 1])) * 0.25 * dt;
    const double top_flux = (r.yarea_up[j] * (y0_up[j] + y0_up[j + 1] + y1_up[j] + y1_up[j + 1])) * 0.25 * dt;
    const double total_flux = right_flux - left_flux + top_flux - bottom_flux;
    const double volume_change_s = r.volume[j] / (r.volume[j] + total_flux);
    const double recip_volume = 1.0 / r.volume[j];
    const double energy_change =
        (r.pressure[j] / r.density0[j] + r.viscosity[j] / r.density0[j]) * total_flux * recip_volume;
    r.energy1[j] = r.energy0[j] - energy_change;
    r.density1[j] = r.density0[j] * volume_change_s;
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
  const Rows xvel0 = rows(c.xvel0), xvel1 = rows(c.xvel1), yvel0 = rows(c.yvel0), yvel1 = rows(c.yvel1);
  for (Index k = c.y_min; k <= c.y_max; ++k) {
    const PdvRow r{xarea[k],    yarea[k],     yarea[k + 1], volume[k],    density0[k], energy0[k],
                   pressure[k], visc[k],      xvel0[k],     xvel0[k + 1], xvel1[k],    xvel1[k + 1],
                   yvel0[k],    yvel0[k + 1], yvel1[k],     yvel1[k + 1], density1[k], energy1[k]};
    if (predict) predictor_row(r, dt, c.x_min, c.x_max);
    else corrector_row(r, dt, c.x_min, c.x_max);
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
