// SPDX-License-Identifier: BSD-3-Clause
// The exchanged fields' names (fields.hpp), as the reference names its arrays (see
// docs/cloverleaf.md, "Fields on grids").
#include "fields.hpp"

namespace cloverleaf {

std::string_view field_name(Field f) {
  switch (f) {
    case Field::density0: return "density0";
    case Field::density1: return "density1";
    case Field::energy0: return "energy0";
    case Field::energy1: return "energy1";
    case Field::pressure: return "pressure";
    case Field::viscosity: return "viscosity";
    case Field::soundspeed: return "soundspeed";
    case Field::xvel0: return "xvel0";
    case Field::xvel1: return "xvel1";
    case Field::yvel0: return "yvel0";
    case Field::yvel1: return "yvel1";
    case Field::vol_flux_x: return "vol_flux_x";
    case Field::vol_flux_y: return "vol_flux_y";
    case Field::mass_flux_x: return "mass_flux_x";
    case Field::mass_flux_y: return "mass_flux_y";
  }
  return "?";
}

}  // namespace cloverleaf
