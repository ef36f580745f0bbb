// SPDX-License-Identifier: BSD-3-Clause
// advec_mom_kernel.f90: the remap of one velocity component in one direction. Node masses and
// fluxes come from the cells' (work arrays: node_flux 1, node_mass_post 2, node_mass_pre 3,
// mom_flux 4, pre_vol 5, post_vol 6, as in the reference); they are computed with the x velocity
// (which_vel 1) and reused by the y velocity that follows it. The reference recomputes pre_vol and
// post_vol for the y velocity too, the same values, which nothing then reads; that is skipped here.
//
// As in advec_cell.cpp, each loop is a row function with restrict parameters that is not inlined,
// so GCC vectorises it.
//
// See docs/cloverleaf.md, "Kernels and exactness".
#include <algorithm>
#include <cmath>

#include "kernels.hpp"

namespace cloverleaf {
namespace {

inline double min2(double a, double b) { return b < a ? b : a; }

// The volumes before and after this sweep, as the reference's mom_sweep 1 to 4 define them:
// 1 x first, 2 y first, 3 x second, 4 y second.
[[gnu::noinline]] void sweep_volumes_row(const double* __restrict vol, const double* __restrict fx,
                                         const double* __restrict fy, const double* __restrict fy_up,
                                         double* __restrict pre, double* __restrict post, int mom_sweep, Index j0,
                                         Index j1) {
  switch (mom_sweep) {
    case 1:
      for (Index j = j0; j <= j1; ++j) {
        post[j] = vol[j] + fy_up[j] - fy[j];
        pre[j] = post[j] + fx[j + 1] - fx[j];
      }
      break;
    case 2:
      for (Index j = j0; j <= j1; ++j) {
        post[j] = vol[j] + fx[j + 1] - fx[j];
        pre[j] = post[j] + fy_up[j] - fy[j];
      }
      break;
    case 3:
      for (Index j = j0; j <= j1; ++j) {
        post[j] = vol[j];
        pre[j] = post[j] + fy_up[j] - fy[j];
      }
      break;
    default:
      for (Index j = j0; j <= j1; ++j) {
        post[j] = vol[j];
        pre[j] = post[j] + fx[j + 1] - fx[j];
      }
      break;
  }
}

void sweep_volumes(Chunk& c, int direction, int sweep_number) {
  const int mom_sweep = direction + 2 * (sweep_number - 1);
  const Rows volume = rows(c.volume), vfx = rows(c.vol_flux_x), vfy = rows(c.vol_flux_y);
  const Rows pre_vol = rows(c.work5), post_vol = rows(c.work6);
  for (Index k = c.y_min - 2; k <= c.y_max + 2; ++k)
    sweep_volumes_row(volume[k], vfx[k], vfy[k], vfy[k + 1], pre_vol[k], post_vol[k], mom_sweep, c.x_min - 2,
                      c.x_max + 2);
}

// The mass flux through node j: a quarter of the four face fluxes around it (x: rows k-1 and k,
// faces j and j+1; y: columns j-1 and j, faces k and k+1), added in the reference's order.
[[gnu::noinline]] void node_flux_x_row(const double* __restrict mf_dn, const double* __restrict mf,
                                       double* __restrict nf, Index j0, Index j1) {
  for (Index j = j0; j <= j1; ++j) nf[j] = 0.25 * (mf_dn[j] + mf[j] + mf_dn[j + 1] + mf[j + 1]);
}
[[gnu::noinline]] void node_flux_y_row(const double* __restrict mf, const double* __restrict mf_up,
                                       double* __restrict nf, Index j0, Index j1) {
  for (Index j = j0; j <= j1; ++j) nf[j] = 0.25 * (mf[j - 1] + mf[j] + mf_up[j - 1] + mf_up[j]);
}

// The node's mass after the sweep (a quarter of each of its four cells', rows k-1 and k, columns
// j-1 and j) and before it (the node fluxes on either side: nf_low[j - shift] out, nf[j] in).
[[gnu::noinline]] void node_mass_row(const double* __restrict d_dn, const double* __restrict d,
                                     const double* __restrict pv_dn, const double* __restrict pv,
                                     const double* __restrict nf_low, const double* __restrict nf,
                                     double* __restrict post, double* __restrict pre, Index shift, Index j0, Index j1) {
  for (Index j = j0; j <= j1; ++j) {
    post[j] = 0.25 * (d_dn[j] * pv_dn[j] + d[j] * pv[j] + d_dn[j - 1] * pv_dn[j - 1] + d[j - 1] * pv[j - 1]);
    pre[j] = post[j] - nf_low[j - shift] + nf[j];
  }
}

// The limited velocity carried across: the reference's limiter on the donor's velocity.
inline double advected_velocity(double donor, double upwind, double downwind, double sigma, double width,
                                double dif_width) {
  const double vdiffuw = donor - upwind;
  const double vdiffdw = downwind - donor;
  double limiter = 0.0;
  if (vdiffuw * vdiffdw > 0.0) {
    const double auw = std::abs(vdiffuw);
    const double adw = std::abs(vdiffdw);
    double wind = 1.0;
    if (vdiffdw <= 0.0) wind = -1.0;
    limiter = wind * min2(min2(width * ((2.0 - sigma) * adw / width + (1.0 + sigma) * auw / dif_width) / 6.0, auw), adw);
  }
  return donor + (1.0 - sigma) * limiter;
}

[[gnu::noinline]] void mom_flux_x_row(const double* __restrict nf, const double* __restrict pre,
                                      const double* __restrict v, const double* __restrict celldx,
                                      double* __restrict mom, Index j0, Index j1) {
  for (Index j = j0; j <= j1; ++j) {
    Index upwind, donor, downwind, dif;
    if (nf[j] < 0.0) {
      upwind = j + 2;
      donor = j + 1;
      downwind = j;
      dif = donor;
    } else {
      upwind = j - 1;
      donor = j;
      downwind = j + 1;
      dif = upwind;
    }
    const double sigma = std::abs(nf[j]) / (pre[donor]);
    mom[j] = advected_velocity(v[donor], v[upwind], v[downwind], sigma, celldx[j], celldx[dif]) * nf[j];
  }
}

// y: the donor node is in row k or k+1 by the flux's sign; rows k-1 .. k+2 of the velocity.
[[gnu::noinline]] void mom_flux_y_row(const double* __restrict nf, const double* __restrict pre_0,
                                      const double* __restrict pre_up, const double* __restrict v_m1,
                                      const double* __restrict v_0, const double* __restrict v_up,
                                      const double* __restrict v_up2, double width, double width_negative,
                                      double width_positive, double* __restrict mom, Index j0, Index j1) {
  for (Index j = j0; j <= j1; ++j) {
    const bool negative = nf[j] < 0.0;
    const double sigma = std::abs(nf[j]) / (negative ? pre_up[j] : pre_0[j]);
    const double donor = negative ? v_up[j] : v_0[j];
    const double upwind = negative ? v_up2[j] : v_m1[j];
    const double downwind = negative ? v_0[j] : v_up[j];
    mom[j] = advected_velocity(donor, upwind, downwind, sigma, width, negative ? width_negative : width_positive) * nf[j];
  }
}

// The node's new velocity: momentum in through the low side (mom_low[j - shift]), out through the high.
[[gnu::noinline]] void velocity_row(const double* __restrict pre, const double* __restrict post,
                                    const double* __restrict mom_low, const double* __restrict mom,
                                    double* __restrict v, Index shift, Index j0, Index j1) {
  for (Index j = j0; j <= j1; ++j) v[j] = (v[j] * pre[j] + mom_low[j - shift] - mom[j]) / post[j];
}

void advec_mom_x(Chunk& c, Grid& velocity, bool node_values) {
  const Rows node_flux = rows(c.work1), node_mass_post = rows(c.work2), node_mass_pre = rows(c.work3);
  const Rows mom_flux = rows(c.work4), post_vol = rows(c.work6);
  const Rows mass_flux_x = rows(c.mass_flux_x), density1 = rows(c.density1), vel1 = rows(velocity);
  if (node_values) {
    for (Index k = c.y_min; k <= c.y_max + 1; ++k)
      node_flux_x_row(mass_flux_x[k - 1], mass_flux_x[k], node_flux[k], c.x_min - 2, c.x_max + 2);
    for (Index k = c.y_min; k <= c.y_max + 1; ++k)
      node_mass_row(density1[k - 1], density1[k], post_vol[k - 1], post_vol[k], node_flux[k], node_flux[k],
                    node_mass_post[k], node_mass_pre[k], 1, c.x_min - 1, c.x_max + 2);
  }
  for (Index k = c.y_min; k <= c.y_max + 1; ++k)
    mom_flux_x_row(node_flux[k], node_mass_pre[k], vel1[k], c.celldx.at_zero(), mom_flux[k], c.x_min - 1, c.x_max + 1);
  for (Index k = c.y_min; k <= c.y_max + 1; ++k)
    velocity_row(node_mass_pre[k], node_mass_post[k], mom_flux[k], mom_flux[k], vel1[k], 1, c.x_min, c.x_max + 1);
}

void advec_mom_y(Chunk& c, Grid& velocity, bool node_values) {
  const Rows node_flux = rows(c.work1), node_mass_post = rows(c.work2), node_mass_pre = rows(c.work3);
  const Rows mom_flux = rows(c.work4), post_vol = rows(c.work6);
  const Rows mass_flux_y = rows(c.mass_flux_y), density1 = rows(c.density1), vel1 = rows(velocity);
  if (node_values) {
    for (Index k = c.y_min - 2; k <= c.y_max + 2; ++k)
      node_flux_y_row(mass_flux_y[k], mass_flux_y[k + 1], node_flux[k], c.x_min, c.x_max + 1);
    for (Index k = c.y_min - 1; k <= c.y_max + 2; ++k)
      node_mass_row(density1[k - 1], density1[k], post_vol[k - 1], post_vol[k], node_flux[k - 1], node_flux[k],
                    node_mass_post[k], node_mass_pre[k], 0, c.x_min, c.x_max + 1);
  }
  for (Index k = c.y_min - 1; k <= c.y_max + 1; ++k) {
    // The width of the dif node's cell: the donor (k + 1) for a negative flux, the upwind (k - 1) otherwise.
    mom_flux_y_row(node_flux[k], node_mass_pre[k], node_mass_pre[k + 1], vel1[k - 1], vel1[k], vel1[k + 1],
                   vel1[k + 2], c.celldy[k], c.celldy[k + 1], c.celldy[k - 1], mom_flux[k], c.x_min, c.x_max + 1);
  }
  for (Index k = c.y_min; k <= c.y_max + 1; ++k)
    velocity_row(node_mass_pre[k], node_mass_post[k], mom_flux[k - 1], mom_flux[k], vel1[k], 0, c.x_min, c.x_max + 1);
}

}  // namespace

void advec_mom(Chunk& c, int which_vel, int direction, int sweep_number) {
  const bool node_values = which_vel == 1;
  if (node_values) sweep_volumes(c, direction, sweep_number);
  Grid& velocity = which_vel == 1 ? c.xvel1 : c.yvel1;
  if (direction == 1) advec_mom_x(c, velocity, node_values);
  else advec_mom_y(c, velocity, node_values);
}

}  // namespace cloverleaf
