// SPDX-License-Identifier: BSD-3-Clause
// Chunk (chunk.hpp): every field a Grid with the reference's halo widths at its mesh position (see
// docs/cloverleaf.md, "Fields on grids").
#include "chunk.hpp"

namespace cloverleaf {

ghostwire::Halo<2> halo_of(FieldKind kind) {
  using ghostwire::Boundary;
  using ghostwire::Stencil;
  switch (kind) {
    case FieldKind::cell: return ghostwire::Halo<2>({2, 2}, Stencil::full, Boundary::open);
    case FieldKind::vertex: return ghostwire::Halo<2>({3, 3}, Stencil::full, Boundary::open);
    case FieldKind::x_face: return ghostwire::Halo<2>({2, 3}, Stencil::full, Boundary::open);
    case FieldKind::y_face: return ghostwire::Halo<2>({3, 2}, Stencil::full, Boundary::open);
  }
  return {};
}

namespace {
const ghostwire::Halo<2> cell_halo = halo_of(FieldKind::cell);
const ghostwire::Halo<2> vertex_halo = halo_of(FieldKind::vertex);
const ghostwire::Halo<2> x_face_halo = halo_of(FieldKind::x_face);
const ghostwire::Halo<2> y_face_halo = halo_of(FieldKind::y_face);
}  // namespace

// Grids are built collectively, in the same order on every rank (member order).
Chunk::Chunk(ghostwire::World& world, const Decomposition& decomposition)
    : d(decomposition),
      nx(decomposition.nx),
      ny(decomposition.ny),
      x_max(decomposition.nx - 1),
      y_max(decomposition.ny - 1),
      density0(world, d.pattern, cell_halo),
      density1(world, d.pattern, cell_halo),
      energy0(world, d.pattern, cell_halo),
      energy1(world, d.pattern, cell_halo),
      pressure(world, d.pattern, cell_halo),
      viscosity(world, d.pattern, cell_halo),
      soundspeed(world, d.pattern, cell_halo),
      xvel0(world, d.pattern, vertex_halo),
      xvel1(world, d.pattern, vertex_halo),
      yvel0(world, d.pattern, vertex_halo),
      yvel1(world, d.pattern, vertex_halo),
      vol_flux_x(world, d.pattern, x_face_halo),
      mass_flux_x(world, d.pattern, x_face_halo),
      vol_flux_y(world, d.pattern, y_face_halo),
      mass_flux_y(world, d.pattern, y_face_halo),
      volume(world, d.pattern, cell_halo),
      xarea(world, d.pattern, x_face_halo),
      yarea(world, d.pattern, y_face_halo),
      work1(world, d.pattern, vertex_halo),
      work2(world, d.pattern, vertex_halo),
      work3(world, d.pattern, vertex_halo),
      work4(world, d.pattern, vertex_halo),
      work5(world, d.pattern, vertex_halo),
      work6(world, d.pattern, vertex_halo),
      work7(world, d.pattern, vertex_halo),
      cellx(x_min - 2, x_max + 2),
      celly(y_min - 2, y_max + 2),
      vertexx(x_min - 2, x_max + 3),
      vertexy(y_min - 2, y_max + 3),
      celldx(x_min - 2, x_max + 2),
      celldy(y_min - 2, y_max + 2),
      vertexdx(x_min - 2, x_max + 3),
      vertexdy(y_min - 2, y_max + 3) {
  fields_ = {&density0, &density1, &energy0,  &energy1,    &pressure,   &viscosity,   &soundspeed, &xvel0,
             &xvel1,    &yvel0,    &yvel1,    &vol_flux_x, &vol_flux_y, &mass_flux_x, &mass_flux_y};
}

}  // namespace cloverleaf
