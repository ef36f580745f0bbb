// SPDX-License-Identifier: BSD-3-Clause
// The profile's labels (profile.hpp): the reference's table rows and the JSON keys (see
// docs/cloverleaf.md, "Output").
#include "profile.hpp"

namespace cloverleaf {

const char* kernel_label(Kernel k) {
  switch (k) {
    case Kernel::timestep: return "Timestep";
    case Kernel::ideal_gas: return "Ideal Gas";
    case Kernel::viscosity: return "Viscosity";
    case Kernel::pdv: return "PdV";
    case Kernel::revert: return "Revert";
    case Kernel::acceleration: return "Acceleration";
    case Kernel::fluxes: return "Fluxes";
    case Kernel::cell_advection: return "Cell Advection";
    case Kernel::mom_advection: return "Momentum Advection";
    case Kernel::reset: return "Reset";
    case Kernel::summary: return "Summary";
    case Kernel::visit: return "Visit";
    case Kernel::halo_exchange: return "Halo Exchange";
    case Kernel::halo_sync: return "Global Sync";
    case Kernel::halo_reflect: return "Self Halo Exchange";
  }
  return "?";
}

const char* kernel_key(Kernel k) {
  switch (k) {
    case Kernel::timestep: return "timestep";
    case Kernel::ideal_gas: return "ideal_gas";
    case Kernel::viscosity: return "viscosity";
    case Kernel::pdv: return "pdv";
    case Kernel::revert: return "revert";
    case Kernel::acceleration: return "acceleration";
    case Kernel::fluxes: return "fluxes";
    case Kernel::cell_advection: return "cell_advection";
    case Kernel::mom_advection: return "mom_advection";
    case Kernel::reset: return "reset";
    case Kernel::summary: return "summary";
    case Kernel::visit: return "visit";
    case Kernel::halo_exchange: return "halo_exchange";
    case Kernel::halo_sync: return "halo_sync";
    case Kernel::halo_reflect: return "halo_reflect";
  }
  return "?";
}

}  // namespace cloverleaf
