// SPDX-License-Identifier: BSD-3-Clause
// The send and receive rectangles of a chunk face (face_boxes.hpp), and their ghostwire Layouts
// (see docs/cloverleaf.md, "Exchange variants").
#include "face_boxes.hpp"

namespace cloverleaf {
namespace {

bool sideways(Face face) { return face == left || face == right; }

// The rows of a left/right message or the columns of a bottom/top one: the whole extent along the
// face, ghosts included.
void span_along(const Chunk& c, FieldKind kind, int depth, Face face, FaceBox& box) {
  if (sideways(face)) {
    box.row = -depth;
    box.rows = c.ny + y_extra(kind) + 2 * depth;
  } else {
    box.col = -depth;
    box.cols = c.nx + x_extra(kind) + 2 * depth;
  }
}

}  // namespace

FaceBox send_box(const Chunk& c, FieldKind kind, int depth, Face face) {
  FaceBox box;
  span_along(c, kind, depth, face, box);
  switch (face) {
    case left: box.col = x_extra(kind), box.cols = depth; break;
    case right: box.col = c.nx - depth, box.cols = depth; break;
    case bottom: box.row = y_extra(kind), box.rows = depth; break;
    case top: box.row = c.ny - depth, box.rows = depth; break;
  }
  return box;
}

FaceBox receive_box(const Chunk& c, FieldKind kind, int depth, Face face) {
  FaceBox box;
  span_along(c, kind, depth, face, box);
  switch (face) {
    case left: box.col = -depth, box.cols = depth; break;
    case right: box.col = c.nx + x_extra(kind), box.cols = depth; break;
    case bottom: box.row = -depth, box.rows = depth; break;
    case top: box.row = c.ny + y_extra(kind), box.rows = depth; break;
  }
  return box;
}

ghostwire::Layout segment_layout(Grid& g, const FaceBox& box) {
  const auto* base = reinterpret_cast<const double*>(g.segment().data());
  const std::ptrdiff_t first = &g(box.row, box.col) - base;
  return ghostwire::Layout::box(static_cast<std::size_t>(first),
                                {static_cast<std::size_t>(box.cols), static_cast<std::size_t>(box.rows)},
                                {1, static_cast<std::ptrdiff_t>(g.stride(0))});
}

}  // namespace cloverleaf
