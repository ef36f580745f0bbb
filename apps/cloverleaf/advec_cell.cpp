// SPDX-License-Identifier: BSD-3-Clause
// advec_cell_kernel.f90: the remap of mass and energy in one direction, with a second-order van Leer
// limited upwind flux. The cells' volume before the sweep (pre_vol, work array 1) comes back from
// the Lagrangian volume in two sweeps; the reference also stores the volume after the sweep
// (post_vol, work array 2), which nothing reads, so it is not computed here. ener_flux is work
// array 7, as in the reference.
//
// Each loop is a row function with restrict parameters that is not inlined: that way GCC knows the
// rows do not overlap and vectorises them (inlined, or through restrict locals, it loses that).
//
// See docs/cloverleaf.md, "Kernels and exactness".
#include <algorithm>
#include <cmath>

#include "kernels.hpp"

namespace cloverleaf {
namespace {

constexpr double one_by_six = 1.0 / 6.0;

inline double min2(double a, double b) { return b < a ? b : a; }

// The limited flux of one quantity: the reference's limiter, then the donor's value plus it.
inline double limited(double donor, double upwind, double downwind, double sigma, double sigma3, double sigma4) {
  const double diffuw = donor - upwind;
  const double diffdw = downwind - donor;
  double wind = 1.0;
  if (diffdw <= 0.0) wind = -1.0;
  double limiter;
  if (diffuw * diffdw > 0.0) {
    limiter = (1.0 - sigma) * wind *
              min2(min2(std::abs(diffuw), std::abs(diffdw)), one_by_six * (sigma3 * std::abs(diffuw) + sigma4 * std::abs(diffdw)));
  } else {
    limiter = 0.0;
  }
  return donor + limiter;
}

// Pre-sweep volumes: sweep 1 undoes both directions' Lagrangian volume change, sweep 2 only this
// direction's (the other direction's sweep already remapped it).
[[gnu::noinline]] void pre_volume_row(const double* __restrict vol, const double* __restrict fx,
                                      const double* __restrict fy, const double* __restrict fy_up,
                                      double* __restrict pre, int direction, int sweep_number, Index j0, Index j1) {
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

void pre_volume(Chunk& c, int direction, int sweep_number) {
  const Rows volume = rows(c.volume), vfx = rows(c.vol_flux_x), vfy = rows(c.vol_flux_y), pre_vol = rows(c.work1);
  for (Index k = c.y_min - 2; k <= c.y_max + 2; ++k)
    pre_volume_row(volume[k], vfx[k], vfy[k], vfy[k + 1], pre_vol[k], direction, sweep_number, c.x_min - 2, c.x_max + 2);
}

// x: the donor is the cell left or right of face j, by the flux's sign.
[[gnu::noinline]] void flux_x_row(const double* __restrict vfx, const double* __restrict pre,
                                  const double* __restrict d1, const double* __restrict e1,
                                  const double* __restrict vertexdx, double* __restrict mfx, double* __restrict eflux,
                                  Index j0, Index j1, Index x_max) {
  for (Index j = j0; j <= j1; ++j) {
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

// y: the donor is the cell below or above face k, by the flux's sign: rows k-2 .. k+1 (the upwind
// row above clamped to the last ghost row, as the reference's MIN(k+1, y_max+2)).
[[gnu::noinline]] void flux_y_row(const double* __restrict vfy, const double* __restrict pre_m1,
                                  const double* __restrict pre_0, const double* __restrict d_m2,
                                  const double* __restrict d_m1, const double* __restrict d_0,
                                  const double* __restrict d_up, const double* __restrict e_m2,
                                  const double* __restrict e_m1, const double* __restrict e_0,
                                  const double* __restrict e_up, double ratio_positive, double ratio_negative,
                                  double* __restrict mfy, double* __restrict eflux, Index j0, Index j1) {
  for (Index j = j0; j <= j1; ++j) {
    // Every candidate loaded, then selected: the loop then has no conditional loads and vectorises.
    const double flux = vfy[j];
    const double p_m1 = pre_m1[j], p_0 = pre_0[j];
    const double dm2 = d_m2[j], dm1 = d_m1[j], d0 = d_0[j], dup = d_up[j];
    const double em2 = e_m2[j], em1 = e_m1[j], e0 = e_0[j], eup = e_up[j];
    const bool positive = flux > 0.0;
    const double pre_donor = positive ? p_m1 : p_0;
    const double sigmat = std::abs(flux) / pre_donor;
    const double sigma3 = (1.0 + sigmat) * (positive ? ratio_positive : ratio_negative);
    const double sigma4 = 2.0 - sigmat;
    const double sigmav = sigmat;
    const double d_donor = positive ? dm1 : d0;
    const double mass = flux * limited(d_donor, positive ? dm2 : dup, positive ? d0 : dm1, sigmav, sigma3, sigma4);
    mfy[j] = mass;
    const double sigmam = std::abs(mass) / (d_donor * pre_donor);
    eflux[j] = mass * limited(positive ? em1 : e0, positive ? em2 : eup, positive ? e0 : em1, sigmam, sigma3, sigma4);
  }
}

// The cell's new density and energy from the fluxes through its low face (`*_low`, index j) and its
// high face (`*_high`, index j + shift: the next column for x, the row above for y).
[[gnu::noinline]] void update_row(const double* __restrict pre, const double* __restrict v_low,
                                  const double* __restrict v_high, const double* __restrict m_low,
                                  const double* __restrict m_high, const double* __restrict e_low,
                                  const double* __restrict e_high, double* __restrict d1, double* __restrict e1,
                                  Index shift, Index j0, Index j1) {
  for (Index j = j0; j <= j1; ++j) {
    const double pre_mass_s = d1[j] * pre[j];
    const double post_mass_s = pre_mass_s + m_low[j] - m_high[j + shift];
    const double post_ener_s = (e1[j] * pre_mass_s + e_low[j] - e_high[j + shift]) / post_mass_s;
    const double advec_vol_s = pre[j] + v_low[j] - v_high[j + shift];
    d1[j] = post_mass_s / advec_vol_s;
    e1[j] = post_ener_s;
  }
}

void advec_cell_x(Chunk& c) {
  const Rows pre_vol = rows(c.work1), ener_flux = rows(c.work7);
  const Rows density1 = rows(c.density1), energy1 = rows(c.energy1);
  const Rows vol_flux_x = rows(c.vol_flux_x), mass_flux_x = rows(c.mass_flux_x);
  for (Index k = c.y_min; k <= c.y_max; ++k)
    flux_x_row(vol_flux_x[k], pre_vol[k], density1[k], energy1[k], c.vertexdx.at_zero(), mass_flux_x[k], ener_flux[k],
               c.x_min, c.x_max + 2, c.x_max);
  for (Index k = c.y_min; k <= c.y_max; ++k)
    update_row(pre_vol[k], vol_flux_x[k], vol_flux_x[k], mass_flux_x[k], mass_flux_x[k], ener_flux[k], ener_flux[k],
               density1[k], energy1[k], 1, c.x_min, c.x_max);
}

void advec_cell_y(Chunk& c) {
  const Rows pre_vol = rows(c.work1), ener_flux = rows(c.work7);
  const Rows density1 = rows(c.density1), energy1 = rows(c.energy1);
  const Rows vol_flux_y = rows(c.vol_flux_y), mass_flux_y = rows(c.mass_flux_y);
  for (Index k = c.y_min; k <= c.y_max + 2; ++k) {
    const Index up = std::min(k + 1, c.y_max + 2);
    // sigma3's ratio of the face's vertexdy to the dif cell's: the donor below, or the upwind above.
    const double ratio_positive = c.vertexdy[k] / c.vertexdy[k - 1];
    const double ratio_negative = c.vertexdy[k] / c.vertexdy[up];
    flux_y_row(vol_flux_y[k], pre_vol[k - 1], pre_vol[k], density1[k - 2], density1[k - 1], density1[k], density1[up],
               energy1[k - 2], energy1[k - 1], energy1[k], energy1[up], ratio_positive, ratio_negative, mass_flux_y[k],
               ener_flux[k], c.x_min, c.x_max);
  }
  for (Index k = c.y_min; k <= c.y_max; ++k)
    update_row(pre_vol[k], vol_flux_y[k], vol_flux_y[k + 1], mass_flux_y[k], mass_flux_y[k + 1], ener_flux[k],
               ener_flux[k + 1], density1[k], energy1[k], 0, c.x_min, c.x_max);
}

}  // namespace

void advec_cell(Chunk& c, int direction, int sweep_number) {
  pre_volume(c, direction, sweep_number);
  if (direction == 1) advec_cell_x(c);
  else advec_cell_y(c);
}

}  // namespace cloverleaf
