// SPDX-License-Identifier: BSD-3-Clause
// Which cells a rank sends to and receives from each neighbour, as boxes of the ghost-inclusive
// index space, grouped into the phases of one halo exchange.
//
// Faces only (5- and 7-point stencils): one phase, up to 6 neighbours, each box the owned face
// (no ghost rows: the stencil never reads edges or corners).
// Faces, edges and corners (9- and 27-point): three phases, x then y then z, each with the two
// neighbours of that axis. A phase's boxes extend over the ghost cells of the axes already
// exchanged, so the edges and corners travel along with the faces: 6 messages instead of 26. This
// is how the reference exchanges for diagonal stencils (it goes y, x, z with whole planes).
//
// See docs/minighost.md, "The MPI baseline".
#pragma once

#include <cstddef>
#include <vector>

#include "decomposition.hpp"
#include "field_view.hpp"
#include "problem_kinds.hpp"

namespace minighost {

struct Box {
  int lo[3];  // inclusive bounds, ghost-inclusive indices (0 .. n+1)
  int hi[3];
  std::size_t cells() const;
};

struct HaloLink {
  Axis axis;
  Side side;      // the side of this rank's block the neighbour is on
  int neighbour;  // rank
  Box send;       // owned cells next to that side
  Box receive;    // ghost cells on that side
};

using HaloPhase = std::vector<HaloLink>;  // links whose messages may travel at the same time

std::vector<HaloPhase> halo_phases(const Decomposition& decomposition, HaloShape shape);

// Copy a box of a field to consecutive doubles and back (x fastest). Return the doubles moved.
std::size_t pack_box(const FieldView& field, const Box& box, double* out);
std::size_t unpack_box(const FieldView& field, const Box& box, const double* in);

}  // namespace minighost
