// advec_cell_kernel.f90: the remap of mass and energy in one direction, with a second-order van Leer
// limited upwind flux. The cells' volume before the sweep (pre_vol, work array 1) comes back from
// the Lagrangian volume in two sweeps; the reference also stores the volume after the sweep
// (post_vol, work array 2), which nothing reads, so it is not computed here. ener_flux is work
// array 7, as in the reference.
#include <algorithm>
#include <cmath>

#include "kernels.hpp"

namespace cloverleaf {
namespace {

constexpr double one_by_six = 1.0 / 6.0;

// The limited flux of one quantity: the reference's limiter, then the donor's value plus it.
inline double limited(double donor, double upwind, double downwind, double sigma, double sigma3, double sigma4) {
  const double diffuw = donor - upwind;
  const double diffdw = downwind - donor;
  double wind = 1.0;
  if (diffdw <= 0.0) wind = -1.0;
  double limiter;
  if (diffuw * diffdw > 0.0) {
    limiter = (1.0 - sigma) * wind *
              std::min({std::abs(diffuw), std::abs(diffdw), one_by_six * (sigma3 * std::abs(diffuw) + sigma4 * std::abs(diffdw))});
  } else {
    limiter = 0.0;
  }
  return donor + limiter;
}

// Pre-sweep volumes: sweep 1 undoes both directions' Lagrangian volume change, sweep 2 only this
// direction's (the other direction's sweep already remapped it).
void pre_volume(Chunk& c, int direction, int sweep_number) {
  const Rows volume = rows(c.volume), vfx = rows(c.vol_flux_x), vfy = rows(c.vol_flux_y), pre_vol = rows(c.work1);
  for (Index k = c.y_min - 2; k <= c.y_max + 2; ++k) {
    const double* __restrict vol = volume[k];
    const double* __restrict fx = vfx[k];
    const double* __restrict fy = vfy[k];
    const double* __restrict fy_up = vfy[k + 1];
    double* __restrict pre = pre_vol[k];
    const Index j0 = c.x_min - 2, j1 = c.x_max + 2;
    if (direction == 1 && sweep_number == 1) {
      for (Index j = j0; j <= j1; ++j) pre[j] = vol[j] + (fx[j + 1] - fx[j] + fy_up[j] - fy[j]);
    } else if (direction == 1) {
      for (Index j = j0; j <= j1; ++j) pre[j] = vol[j] + fx[j + 1] - fx[j];
    } else if (sweep_number == 1) {
      for (Index j = j0; j <= j1; ++j) pre[j] = vol[j] + (fy_up[j] - fy[j] + fx[j + 1] - fx[j]);
    } else {
      for (Index j = j0; j <= j1; ++j) pre[j] = vol[j] + fy_up[j] - fy[j];
    }
  }
}

void advec_cell_x(Chunk& c) {
  const Rows pre_vol = rows(c.work1), ener_flux = rows(c.work7);
  const Rows density1 = rows(c.density1), energy1 = rows(c.energy1);
  const Rows vol_flux_x = rows(c.vol_flux_x), mass_flux_x = rows(c.mass_flux_x);
  const double* vertexdx = c.vertexdx.at_zero();
  const Index x_max = c.x_max;
  for (Index k = c.y_min; k <= c.y_max; ++k) {
    const double* __restrict vfx = vol_flux_x[k];
    const double* __restrict pre = pre_vol[k];
    const double* __restrict d1 = density1[k];
    const double* __restrict e1 = energy1[k];
    double* __restrict mfx = mass_flux_x[k];
    double* __restrict eflux = ener_flux[k];
    for (Index j = c.x_min; j <= c.x_max + 2; ++j) {
      Index upwind, donor, downwind, dif;
      if (vfx[j] > 0.0) {
        upwind = j - 2;
        donor = j - 1;
        downwind = j;
        dif = donor;
      } else {
        upwind = std::min(j + 1, x_max + 2);
        donor = j;
        downwind = j - 1;
        dif = upwind;
      }
      const double sigmat = std::abs(vfx[j]) / pre[donor];
      const double sigma3 = (1.0 + sigmat) * (vertexdx[j] / vertexdx[dif]);
      const double sigma4 = 2.0 - sigmat;
      const double sigmav = sigmat;
      mfx[j] = vfx[j] * limited(d1[donor], d1[upwind], d1[downwind], sigmav, sigma3, sigma4);
      const double sigmam = std::abs(mfx[j]) / (d1[donor] * pre[donor]);
      eflux[j] = mfx[j] * limited(e1[donor], e1[upwind], e1[downwind], sigmam, sigma3, sigma4);
    }
  }
  for (Index k = c.y_min; k <= c.y_max; ++k) {
    const double* __restrict vfx = vol_flux_x[k];
    const double* __restrict pre = pre_vol[k];
    const double* __restrict mfx = mass_flux_x[k];
    const double* __restrict eflux = ener_flux[k];
    double* __restrict d1 = density1[k];
    double* __restrict e1 = energy1[k];
    for (Index j = c.x_min; j <= c.x_max; ++j) {
      const double pre_mass_s = d1[j] * pre[j];
      const double post_mass_s = pre_mass_s + mfx[j] - mfx[j + 1];
      const double post_ener_s = (e1[j] * pre_mass_s + eflux[j] - eflux[j + 1]) / post_mass_s;
      const double advec_vol_s = pre[j] + vfx[j] - vfx[j + 1];
      d1[j] = post_mass_s / advec_vol_s;
      e1[j] = post_ener_s;
    }
  }
}

void advec_cell_y(Chunk& c) {
  const Rows pre_vol = rows(c.work1), ener_flux = rows(c.work7);
  const Rows density1 = rows(c.density1), energy1 = rows(c.energy1);
  const Rows vol_flux_y = rows(c.vol_flux_y), mass_flux_y = rows(c.mass_flux_y);
  const Index y_max = c.y_max;
  for (Index k = c.y_min; k <= c.y_max + 2; ++k) {
    // The donor, upwind and downwind rows of both flux signs.
    const Index up = std::min(k + 1, y_max + 2);
    const double* __restrict vfy = vol_flux_y[k];
    double* __restrict mfy = mass_flux_y[k];
    double* __restrict eflux = ener_flux[k];
    const double* d_m2 = density1[k - 2];
    const double* d_m1 = density1[k - 1];
    const double* d_0 = density1[k];
    const double* d_up = density1[up];
    const double* e_m2 = energy1[k - 2];
    const double* e_m1 = energy1[k - 1];
    const double* e_0 = energy1[k];
    const double* e_up = energy1[up];
    const double* pre_m1 = pre_vol[k - 1];
    const double* pre_0 = pre_vol[k];
    const double ratio_positive = c.vertexdy[k] / c.vertexdy[k - 1];
    const double ratio_negative = c.vertexdy[k] / c.vertexdy[up];
    for (Index j = c.x_min; j <= c.x_max; ++j) {
      const bool positive = vfy[j] > 0.0;
      const double pre_donor = positive ? pre_m1[j] : pre_0[j];
      const double sigmat = std::abs(vfy[j]) / pre_donor;
      const double sigma3 = (1.0 + sigmat) * (positive ? ratio_positive : ratio_negative);
      const double sigma4 = 2.0 - sigmat;
      const double sigmav = sigmat;
      const double d_donor = positive ? d_m1[j] : d_0[j];
      const double d_upwind = positive ? d_m2[j] : d_up[j];
      const double d_downwind = positive ? d_0[j] : d_m1[j];
      mfy[j] = vfy[j] * limited(d_donor, d_upwind, d_downwind, sigmav, sigma3, sigma4);
      const double sigmam = std::abs(mfy[j]) / (d_donor * pre_donor);
      const double e_donor = positive ? e_m1[j] : e_0[j];
      const double e_upwind = positive ? e_m2[j] : e_up[j];
      const double e_downwind = positive ? e_0[j] : e_m1[j];
      eflux[j] = mfy[j] * limited(e_donor, e_upwind, e_downwind, sigmam, sigma3, sigma4);
    }
  }
  for (Index k = c.y_min; k <= c.y_max; ++k) {
    const double* __restrict vfy = vol_flux_y[k];
    const double* __restrict vfy_up = vol_flux_y[k + 1];
    const double* __restrict pre = pre_vol[k];
    const double* __restrict mfy = mass_flux_y[k];
    const double* __restrict mfy_up = mass_flux_y[k + 1];
    const double* __restrict eflux = ener_flux[k];
    const double* __restrict eflux_up = ener_flux[k + 1];
    double* __restrict d1 = density1[k];
    double* __restrict e1 = energy1[k];
    for (Index j = c.x_min; j <= c.x_max; ++j) {
      const double pre_mass_s = d1[j] * pre[j];
      const double post_mass_s = pre_mass_s + mfy[j] - mfy_up[j];
      const double post_ener_s = (e1[j] * pre_mass_s + eflux[j] - eflux_up[j]) / post_mass_s;
      const double advec_vol_s = pre[j] + vfy[j] - vfy_up[j];
      d1[j] = post_mass_s / advec_vol_s;
      e1[j] = post_ener_s;
    }
  }
}

}  // namespace

void advec_cell(Chunk& c, int direction, int sweep_number) {
  pre_volume(c, direction, sweep_number);
  if (direction == 1) advec_cell_x(c);
  else advec_cell_y(c);
}

}  // namespace cloverleaf
