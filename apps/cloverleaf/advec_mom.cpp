// advec_mom_kernel.f90: the remap of one velocity component in one direction. Node masses and
// fluxes come from the cells' (work arrays: node_flux 1, node_mass_post 2, node_mass_pre 3,
// mom_flux 4, pre_vol 5, post_vol 6, as in the reference); they are computed with the x velocity
// (which_vel 1) and reused by the y velocity that follows it. The reference recomputes pre_vol and
// post_vol for the y velocity too, the same values, which nothing then reads; that is skipped here.
#include <algorithm>
#include <cmath>

#include "kernels.hpp"

namespace cloverleaf {
namespace {

// The volumes before and after this sweep, as the reference's mom_sweep 1 to 4 define them.
void sweep_volumes(Chunk& c, int direction, int sweep_number) {
  const int mom_sweep = direction + 2 * (sweep_number - 1);
  const Rows volume = rows(c.volume), vfx = rows(c.vol_flux_x), vfy = rows(c.vol_flux_y);
  const Rows pre_vol = rows(c.work5), post_vol = rows(c.work6);
  for (Index k = c.y_min - 2; k <= c.y_max + 2; ++k) {
    const double* __restrict vol = volume[k];
    const double* __restrict fx = vfx[k];
    const double* __restrict fy = vfy[k];
    const double* __restrict fy_up = vfy[k + 1];
    double* __restrict pre = pre_vol[k];
    double* __restrict post = post_vol[k];
    const Index j0 = c.x_min - 2, j1 = c.x_max + 2;
    switch (mom_sweep) {
      case 1:  // x, first sweep
        for (Index j = j0; j <= j1; ++j) {
          post[j] = vol[j] + fy_up[j] - fy[j];
          pre[j] = post[j] + fx[j + 1] - fx[j];
        }
        break;
      case 2:  // y, first sweep
        for (Index j = j0; j <= j1; ++j) {
          post[j] = vol[j] + fx[j + 1] - fx[j];
          pre[j] = post[j] + fy_up[j] - fy[j];
        }
        break;
      case 3:  // x, second sweep
        for (Index j = j0; j <= j1; ++j) {
          post[j] = vol[j];
          pre[j] = post[j] + fy_up[j] - fy[j];
        }
        break;
      default:  // y, second sweep
        for (Index j = j0; j <= j1; ++j) {
          post[j] = vol[j];
          pre[j] = post[j] + fx[j + 1] - fx[j];
        }
        break;
    }
  }
}

// The node's mass: a quarter of each of its four cells' (rows k-1 and k, columns j-1 and j).
inline double node_mass(const double* d_dn, const double* pv_dn, const double* d, const double* pv, Index j) {
  return 0.25 * (d_dn[j] * pv_dn[j] + d[j] * pv[j] + d_dn[j - 1] * pv_dn[j - 1] + d[j - 1] * pv[j - 1]);
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
    limiter = wind * std::min({width * ((2.0 - sigma) * adw / width + (1.0 + sigma) * auw / dif_width) / 6.0, auw, adw});
  }
  return donor + (1.0 - sigma) * limiter;
}

void advec_mom_x(Chunk& c, Grid& velocity, bool node_values) {
  const Rows node_flux = rows(c.work1), node_mass_post = rows(c.work2), node_mass_pre = rows(c.work3);
  const Rows mom_flux = rows(c.work4), post_vol = rows(c.work6);
  const Rows mass_flux_x = rows(c.mass_flux_x), density1 = rows(c.density1), vel1 = rows(velocity);
  const double* celldx = c.celldx.at_zero();
  if (node_values) {
    for (Index k = c.y_min; k <= c.y_max + 1; ++k) {
      const double* __restrict mf_dn = mass_flux_x[k - 1];
      const double* __restrict mf = mass_flux_x[k];
      double* __restrict nf = node_flux[k];
      for (Index j = c.x_min - 2; j <= c.x_max + 2; ++j) nf[j] = 0.25 * (mf_dn[j] + mf[j] + mf_dn[j + 1] + mf[j + 1]);
    }
    for (Index k = c.y_min; k <= c.y_max + 1; ++k) {
      const double* __restrict d_dn = density1[k - 1];
      const double* __restrict d = density1[k];
      const double* __restrict pv_dn = post_vol[k - 1];
      const double* __restrict pv = post_vol[k];
      const double* __restrict nf = node_flux[k];
      double* __restrict post = node_mass_post[k];
      double* __restrict pre = node_mass_pre[k];
      for (Index j = c.x_min - 1; j <= c.x_max + 2; ++j) {
        post[j] = node_mass(d_dn, pv_dn, d, pv, j);
        pre[j] = post[j] - nf[j - 1] + nf[j];
      }
    }
  }
  for (Index k = c.y_min; k <= c.y_max + 1; ++k) {
    const double* __restrict nf = node_flux[k];
    const double* __restrict pre = node_mass_pre[k];
    const double* __restrict v = vel1[k];
    double* __restrict mom = mom_flux[k];
    for (Index j = c.x_min - 1; j <= c.x_max + 1; ++j) {
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
  for (Index k = c.y_min; k <= c.y_max + 1; ++k) {
    const double* __restrict pre = node_mass_pre[k];
    const double* __restrict post = node_mass_post[k];
    const double* __restrict mom = mom_flux[k];
    double* __restrict v = vel1[k];
    for (Index j = c.x_min; j <= c.x_max + 1; ++j) v[j] = (v[j] * pre[j] + mom[j - 1] - mom[j]) / post[j];
  }
}

void advec_mom_y(Chunk& c, Grid& velocity, bool node_values) {
  const Rows node_flux = rows(c.work1), node_mass_post = rows(c.work2), node_mass_pre = rows(c.work3);
  const Rows mom_flux = rows(c.work4), post_vol = rows(c.work6);
  const Rows mass_flux_y = rows(c.mass_flux_y), density1 = rows(c.density1), vel1 = rows(velocity);
  if (node_values) {
    for (Index k = c.y_min - 2; k <= c.y_max + 2; ++k) {
      const double* __restrict mf = mass_flux_y[k];
      const double* __restrict mf_up = mass_flux_y[k + 1];
      double* __restrict nf = node_flux[k];
      for (Index j = c.x_min; j <= c.x_max + 1; ++j) nf[j] = 0.25 * (mf[j - 1] + mf[j] + mf_up[j - 1] + mf_up[j]);
    }
    for (Index k = c.y_min - 1; k <= c.y_max + 2; ++k) {
      const double* __restrict d_dn = density1[k - 1];
      const double* __restrict d = density1[k];
      const double* __restrict pv_dn = post_vol[k - 1];
      const double* __restrict pv = post_vol[k];
      const double* __restrict nf_dn = node_flux[k - 1];
      const double* __restrict nf = node_flux[k];
      double* __restrict post = node_mass_post[k];
      double* __restrict pre = node_mass_pre[k];
      for (Index j = c.x_min; j <= c.x_max + 1; ++j) {
        post[j] = node_mass(d_dn, pv_dn, d, pv, j);
        pre[j] = post[j] - nf_dn[j] + nf[j];
      }
    }
  }
  for (Index k = c.y_min - 1; k <= c.y_max + 1; ++k) {
    const double* __restrict nf = node_flux[k];
    const double* __restrict pre_0 = node_mass_pre[k];
    const double* __restrict pre_up = node_mass_pre[k + 1];
    const double* __restrict v_m1 = vel1[k - 1];
    const double* __restrict v_0 = vel1[k];
    const double* __restrict v_up = vel1[k + 1];
    const double* __restrict v_up2 = vel1[k + 2];
    double* __restrict mom = mom_flux[k];
    const double width = c.celldy[k];
    const double width_negative = c.celldy[k + 1];  // dif = donor = k + 1
    const double width_positive = c.celldy[k - 1];  // dif = upwind = k - 1
    for (Index j = c.x_min; j <= c.x_max + 1; ++j) {
      const bool negative = nf[j] < 0.0;
      const double sigma = std::abs(nf[j]) / (negative ? pre_up[j] : pre_0[j]);
      const double donor = negative ? v_up[j] : v_0[j];
      const double upwind = negative ? v_up2[j] : v_m1[j];
      const double downwind = negative ? v_0[j] : v_up[j];
      mom[j] = advected_velocity(donor, upwind, downwind, sigma, width, negative ? width_negative : width_positive) *
               nf[j];
    }
  }
  for (Index k = c.y_min; k <= c.y_max + 1; ++k) {
    const double* __restrict pre = node_mass_pre[k];
    const double* __restrict post = node_mass_post[k];
    const double* __restrict mom_dn = mom_flux[k - 1];
    const double* __restrict mom = mom_flux[k];
    double* __restrict v = vel1[k];
    for (Index j = c.x_min; j <= c.x_max + 1; ++j) v[j] = (v[j] * pre[j] + mom_dn[j] - mom[j]) / post[j];
  }
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
