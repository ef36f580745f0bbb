// SPDX-License-Identifier: BSD-3-Clause
// The enumerated choices of miniGhost, with the reference's numeric codes (the command line takes
// the codes, so runs are written exactly as for the original program).
// See docs/minighost.md, "Options".
#pragma once

#include <string_view>

namespace minighost {

enum class Scaling {
  strong = 1,  // --nx/--ny/--nz are the global grid, split over the process grid
  weak = 2,    // --nx/--ny/--nz are every rank's block
};

enum class CommMethod {
  bspma = 10,  // bulk synchronous, message aggregation: one message per neighbour holds all variables
  svaf = 11,   // single variable, aggregated faces: each variable is exchanged, then updated, in turn
};

enum class Stencil {
  five_point_2d = 21,         // 2D5PT: the cell and its 4 neighbours in its x-y plane
  nine_point_2d = 22,         // 2D9PT: the 3x3 square around the cell in its x-y plane
  seven_point_3d = 23,        // 3D7PT: the cell and its 6 face neighbours
  twenty_seven_point_3d = 24  // 3D27PT: the 3x3x3 cube around the cell
};

// How much of the ghost layer a stencil reads: stencils with diagonal points also need the edge and
// corner ghost cells, which costs a dimension-by-dimension exchange instead of one round of faces.
enum class HaloShape { faces, faces_edges_corners };

std::string_view scaling_name(Scaling scaling);
std::string_view comm_method_name(CommMethod method);
std::string_view stencil_name(Stencil stencil);  // "3D7PT" ...
int stencil_points(Stencil stencil);             // also the divisor of the average: 5, 9, 7, 27
bool stencil_is_3d(Stencil stencil);
HaloShape halo_shape(Stencil stencil);

}  // namespace minighost
