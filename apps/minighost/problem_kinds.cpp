// SPDX-License-Identifier: BSD-3-Clause
// The names and properties of the enumerated choices (problem_kinds.hpp) (see docs/minighost.md,
// "Options").
#include "problem_kinds.hpp"

namespace minighost {

std::string_view scaling_name(Scaling scaling) {
  return scaling == Scaling::strong ? "strong" : "weak";
}

std::string_view comm_method_name(CommMethod method) {
  return method == CommMethod::bspma ? "BSPMA" : "SVAF";
}

std::string_view stencil_name(Stencil stencil) {
  switch (stencil) {
    case Stencil::five_point_2d: return "2D5PT";
    case Stencil::nine_point_2d: return "2D9PT";
    case Stencil::seven_point_3d: return "3D7PT";
    case Stencil::twenty_seven_point_3d: return "3D27PT";
  }
  return "?";
}

int stencil_points(Stencil stencil) {
  switch (stencil) {
    case Stencil::five_point_2d: return 5;
    case Stencil::nine_point_2d: return 9;
    case Stencil::seven_point_3d: return 7;
    case Stencil::twenty_seven_point_3d: return 27;
  }
  return 0;
}

bool stencil_is_3d(Stencil stencil) {
  return stencil == Stencil::seven_point_3d || stencil == Stencil::twenty_seven_point_3d;
}

HaloShape halo_shape(Stencil stencil) {
  return stencil == Stencil::nine_point_2d || stencil == Stencil::twenty_seven_point_3d
             ? HaloShape::faces_edges_corners
             : HaloShape::faces;
}

}  // namespace minighost
