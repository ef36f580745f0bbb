// SPDX-License-Identifier: BSD-3-Clause
// update_halo_kernel.f90: reflective boundaries. On a chunk face that is the mesh's edge, ghost
// rows (columns) mirror the rows next to the edge: cell values across the cell edge, node values
// across the edge node (which stays itself), with the velocity (or face flux) normal to the edge
// negated. Per field the order is bottom, top, left, right, and the left and right columns run over
// the ghost rows too, so corners mirror the already mirrored rows, as in the reference. A few index
// offsets of the reference are kept although they look asymmetric (the x-face fields' top and the
// y-face fields' right mirror across one face further in): the values must be the reference's.
//
// See docs/cloverleaf.md, "Kernels and exactness".
#include "kernels.hpp"

namespace cloverleaf {
namespace {

struct Edges {
  bool bottom, top, left, right;
};

void cell_field(Grid& g, const Chunk& c, const Edges& e, int depth) {
  const Rows f = rows(g);
  const Index x_min = c.x_min, x_max = c.x_max, y_min = c.y_min, y_max = c.y_max;
  if (e.bottom)
    for (Index k = 1; k <= depth; ++k)
      for (Index j = x_min - depth; j <= x_max + depth; ++j) f[y_min - k][j] = f[y_min - 1 + k][j];
  if (e.top)
    for (Index k = 1; k <= depth; ++k)
      for (Index j = x_min - depth; j <= x_max + depth; ++j) f[y_max + k][j] = f[y_max + 1 - k][j];
  if (e.left)
    for (Index k = y_min - depth; k <= y_max + depth; ++k)
      for (Index j = 1; j <= depth; ++j) f[k][x_min - j] = f[k][x_min - 1 + j];
  if (e.right)
    for (Index k = y_min - depth; k <= y_max + depth; ++k)
      for (Index j = 1; j <= depth; ++j) f[k][x_max + j] = f[k][x_max + 1 - j];
}

// Velocities: x_sign is -1 for xvel (normal to the left and right edges), y_sign for yvel.
void vertex_field(Grid& g, const Chunk& c, const Edges& e, int depth, double x_sign, double y_sign) {
  const Rows f = rows(g);
  const Index x_min = c.x_min, x_max = c.x_max, y_min = c.y_min, y_max = c.y_max;
  if (e.bottom)
    for (Index k = 1; k <= depth; ++k)
      for (Index j = x_min - depth; j <= x_max + 1 + depth; ++j) f[y_min - k][j] = y_sign * f[y_min + k][j];
  if (e.top)
    for (Index k = 1; k <= depth; ++k)
      for (Index j = x_min - depth; j <= x_max + 1 + depth; ++j) f[y_max + 1 + k][j] = y_sign * f[y_max + 1 - k][j];
  if (e.left)
    for (Index k = y_min - depth; k <= y_max + 1 + depth; ++k)
      for (Index j = 1; j <= depth; ++j) f[k][x_min - j] = x_sign * f[k][x_min + j];
  if (e.right)
    for (Index k = y_min - depth; k <= y_max + 1 + depth; ++k)
      for (Index j = 1; j <= depth; ++j) f[k][x_max + 1 + j] = x_sign * f[k][x_max + 1 - j];
}

void x_face_field(Grid& g, const Chunk& c, const Edges& e, int depth) {
  const Rows f = rows(g);
  const Index x_min = c.x_min, x_max = c.x_max, y_min = c.y_min, y_max = c.y_max;
  if (e.bottom)
    for (Index k = 1; k <= depth; ++k)
      for (Index j = x_min - depth; j <= x_max + 1 + depth; ++j) f[y_min - k][j] = f[y_min + k][j];
  if (e.top)
    for (Index k = 1; k <= depth; ++k)
      for (Index j = x_min - depth; j <= x_max + 1 + depth; ++j) f[y_max + k][j] = f[y_max - k][j];
  if (e.left)
    for (Index k = y_min - depth; k <= y_max + depth; ++k)
      for (Index j = 1; j <= depth; ++j) f[k][x_min - j] = -f[k][x_min + j];
  if (e.right)
    for (Index k = y_min - depth; k <= y_max + depth; ++k)
      for (Index j = 1; j <= depth; ++j) f[k][x_max + j + 1] = -f[k][x_max + 1 - j];
}

void y_face_field(Grid& g, const Chunk& c, const Edges& e, int depth) {
  const Rows f = rows(g);
  const Index x_min = c.x_min, x_max = c.x_max, y_min = c.y_min, y_max = c.y_max;
  if (e.bottom)
    for (Index k = 1; k <= depth; ++k)
      for (Index j = x_min - depth; j <= x_max + depth; ++j) f[y_min - k][j] = -f[y_min + k][j];
  if (e.top)
    for (Index k = 1; k <= depth; ++k)
      for (Index j = x_min - depth; j <= x_max + depth; ++j) f[y_max + k + 1][j] = -f[y_max + 1 - k][j];
  if (e.left)
    for (Index k = y_min - depth; k <= y_max + 1 + depth; ++k)
      for (Index j = 1; j <= depth; ++j) f[k][x_min - j] = f[k][x_min + j];
  if (e.right)
    for (Index k = y_min - depth; k <= y_max + 1 + depth; ++k)
      for (Index j = 1; j <= depth; ++j) f[k][x_max + j] = f[k][x_max - j];
}

}  // namespace

void reflect_boundaries(Chunk& c, FieldMask fields, int depth) {
  const Edges e{c.d.external(bottom), c.d.external(top), c.d.external(left), c.d.external(right)};
  if (!(e.bottom || e.top || e.left || e.right)) return;
  fields.for_each([&](Field f) {
    Grid& g = c.field(f);
    switch (f) {
      case Field::xvel0:
      case Field::xvel1: vertex_field(g, c, e, depth, -1.0, 1.0); break;
      case Field::yvel0:
      case Field::yvel1: vertex_field(g, c, e, depth, 1.0, -1.0); break;
      case Field::vol_flux_x:
      case Field::mass_flux_x: x_face_field(g, c, e, depth); break;
      case Field::vol_flux_y:
      case Field::mass_flux_y: y_face_field(g, c, e, depth); break;
      default: cell_field(g, c, e, depth); break;
    }
  });
}

}  // namespace cloverleaf
