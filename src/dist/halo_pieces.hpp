// SPDX-License-Identifier: BSD-3-Clause
// Which cells fill which ghost cells: the geometry of a halo update, from the pattern alone.
//
// An update fills some of a grid's ghost cells (GhostLayers: per dimension, layers on the low and
// the high side, at most the halo width). A rank's ghost cells are cut by direction (the 3^N - 1
// sides, edges and corners of its block; faces only for Stencil::faces) and, within a direction, by
// the owners of the cells they mirror (several owners when the halo is wider than a neighbour's
// block; periodic wrap-around when the boundary is periodic; none beyond an open boundary). Sender
// and receiver both derive the pieces of a message from the receiver's ghost_pieces, so both list
// them in the same order.
#pragma once

#include <vector>

#include "ghostwire/dist/grid.hpp"
#include "ghostwire/dist/pattern_core.hpp"

namespace ghostwire::detail {

// The ghost cells an update fills in one grid: `low[d]` layers below the owned cells of dimension d
// and `high[d]` above them, with the grid's stencil and boundaries. Edges and corners combine the
// layers of the dimensions they lie in.
struct GhostLayers {
  int dimensions = 0;
  Index low[3] = {0, 0, 0};
  Index high[3] = {0, 0, 0};
  bool periodic[3] = {false, false, false};
  Stencil stencil = Stencil::faces;
  bool operator==(const GhostLayers&) const = default;
};

// Every ghost cell of the halo.
GhostLayers all_layers(const HaloSpec& halo);

struct GhostPiece {
  int sender = -1;
  Index receiver_low[3] = {0, 0, 0};  // receiver's local coordinates (ghost cells)
  Index sender_low[3] = {0, 0, 0};    // sender's local coordinates (owned cells)
  Index extent[3] = {1, 1, 1};
};

// Appends the pieces of `receiver`'s ghost cells, in the canonical order.
void ghost_pieces(const PatternCore& pattern, const GhostLayers& layers, int receiver, std::vector<GhostPiece>& out);

// The ranks whose ghost cells may mirror cells of `sender` (a superset; ascending).
std::vector<int> possible_receivers(const PatternCore& pattern, const GhostLayers& layers, int sender);

}  // namespace ghostwire::detail
