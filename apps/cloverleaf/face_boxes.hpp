// SPDX-License-Identifier: BSD-3-Clause
// The rectangles of a field that cross a chunk face in the reference's exchange (exchange_mpi.cpp
// packs the same ones): what this chunk sends across a face and where the neighbour's message
// lands, per field kind and depth, in local (row, column) = (y, x) coordinates.
//
//   left/right:  `depth` columns over rows -depth .. ny-1+y_extra+depth (the ghost rows and, for
//                vertex and y-face fields, the edge row ny: at the mesh's top edge that row is only
//                filled this way)
//   bottom/top:  `depth` rows over columns -depth .. nx-1+x_extra+depth (the ghost columns the
//                left/right step has just filled: corners in two hops)
//
// The columns sent left start past the low edge node (vertex and x-face fields), which the left
// neighbour owns as its own high edge; the columns received on the right start past this chunk's
// high edge node. Rows likewise. Both sides list their boxes in the same order (row-major,
// ascending), so box i of the sender is box i of the receiver.
//
// See docs/cloverleaf.md, "Exchange variants".
#pragma once

#include <ghostwire/layout.hpp>

#include "chunk.hpp"

namespace cloverleaf {

struct FaceBox {
  Index row = 0, col = 0;    // lowest local row and column
  Index rows = 0, cols = 0;  // extents
};

FaceBox send_box(const Chunk& c, FieldKind kind, int depth, Face face);
FaceBox receive_box(const Chunk& c, FieldKind kind, int depth, Face face);

// A box of grid `g` as a Layout over the memory of g's Segment (Plan::add_memory(g.segment(), ...)).
ghostwire::Layout segment_layout(Grid& g, const FaceBox& box);

}  // namespace cloverleaf
