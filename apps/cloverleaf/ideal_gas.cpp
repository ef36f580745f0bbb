// SPDX-License-Identifier: BSD-3-Clause
// ideal_gas_kernel.f90: a gamma = 1.4 ideal gas.
// See docs/cloverleaf.md, "Kernels and exactness".
#include <cmath>

#include "kernels.hpp"

namespace cloverleaf {
namespace {

void ideal_gas_row(const double* __restrict density, const double* __restrict energy, double* __restrict pressure,
                   double* __restrict soundspeed, Index j0, Index j1) {
  for (Index j = j0; j <= j1; ++j) {
    const double v = 1.0 / density[j];
    pressure[j] = (1.4 - 1.0) * density[j] * energy[j];
    const double pressurebyenergy = (1.4 - 1.0) * density[j];
    const double pressurebyvolume = -density[j] * pressure[j];
    const double sound_speed_squared = v * v * (pressure[j] * pressurebyenergy - pressurebyvolume);
    soundspeed[j] = std::sqrt(sound_speed_squared);
  }
}

}  // namespace

void ideal_gas(Chunk& c, bool predict) {
  const Rows density = rows(predict ? c.density1 : c.density0);
  const Rows energy = rows(predict ? c.energy1 : c.energy0);
  const Rows pressure = rows(c.pressure), soundspeed = rows(c.soundspeed);
  for (Index k = c.y_min; k <= c.y_max; ++k)
    ideal_gas_row(density[k], energy[k], pressure[k], soundspeed[k], c.x_min, c.x_max);
}

}  // namespace cloverleaf
