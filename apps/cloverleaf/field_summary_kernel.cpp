// SPDX-License-Identifier: BSD-3-Clause
// field_summary_kernel.f90: this chunk's totals, summed cell by cell in the reference's order (rows
// from the bottom, each from the left), so one rank's sums are the reference's to the last bit.
// See docs/cloverleaf.md, "Kernels and exactness".
#include "kernels.hpp"

namespace cloverleaf {

FieldSums field_summary_kernel(Chunk& c) {
  const Rows volume = rows(c.volume), density0 = rows(c.density0), energy0 = rows(c.energy0);
  const Rows pressure = rows(c.pressure), xvel0 = rows(c.xvel0), yvel0 = rows(c.yvel0);
  double vol = 0.0, mass = 0.0, ie = 0.0, ke = 0.0, press = 0.0;
  for (Index k = c.y_min; k <= c.y_max; ++k) {
    const double* vol_k = volume[k];
    const double* d = density0[k];
    const double* e = energy0[k];
    const double* p = pressure[k];
    const double* u[2] = {xvel0[k], xvel0[k + 1]};
    const double* v[2] = {yvel0[k], yvel0[k + 1]};
    for (Index j = c.x_min; j <= c.x_max; ++j) {
      double vsqrd = 0.0;
      for (int kv = 0; kv < 2; ++kv)
        for (Index jv = j; jv <= j + 1; ++jv) vsqrd = vsqrd + 0.25 * (u[kv][jv] * u[kv][jv] + v[kv][jv] * v[kv][jv]);
      const double cell_vol = vol_k[j];
      const double cell_mass = cell_vol * d[j];
      vol = vol + cell_vol;
      mass = mass + cell_mass;
      ie = ie + cell_mass * e[j];
      ke = ke + cell_mass * 0.5 * vsqrd;
      press = press + cell_vol * p[j];
    }
  }
  return {vol, mass, ie, ke, press};
}

}  // namespace cloverleaf
