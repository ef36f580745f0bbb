// SPDX-License-Identifier: BSD-3-Clause
// Chunk: this rank's part of the mesh. Every 2-D field is a ghostwire Grid<double, 2> on the
// decomposition's Pattern (dimension 0 = y, dimension 1 = x, so x is contiguous like the
// reference's first index); local index 0 is the chunk's first cell (the reference's x_min = 1).
//
// Halo widths follow the reference's array bounds, per mesh position (y width, x width):
//   cell   {2, 2}  density, energy, pressure, viscosity, soundspeed, volume: [-2, n+2)
//   vertex {3, 3}  velocities, work arrays: [-2, n+3); node n is the chunk's high-side edge, shared
//                  with the neighbour and computed by both: it sits in the Grid's first high ghost
//   x face {2, 3}  vol_flux_x, mass_flux_x, xarea: x in [-2, n+3), y in [-2, n+2)
//   y face {3, 2}  vol_flux_y, mass_flux_y, yarea
// (the lowest vertex ghost, -3, is never used). Stencil::full and Boundary::open: ghostwire's own
// updates (the gw exchange variants) fill corners, and never the mesh's edge, which the reflective
// boundary code writes.
//
// See docs/cloverleaf.md, "Fields on grids".
#pragma once

#include <array>
#include <vector>

#include <ghostwire/dist.hpp>

#include "decompose.hpp"
#include "fields.hpp"

namespace cloverleaf {

using Grid = ghostwire::Grid<double, 2>;

// A 1-D array indexed from `low` (the reference's cellx(x_min-2:x_max+2) and the like).
class Line {
 public:
  Line() = default;
  Line(Index low, Index high) : low_(low), values_(static_cast<std::size_t>(high - low + 1), 0.0) {}
  double& operator[](Index i) { return values_[static_cast<std::size_t>(i - low_)]; }
  double operator[](Index i) const { return values_[static_cast<std::size_t>(i - low_)]; }
  const double* at_zero() const { return values_.data() - low_; }  // pointer to index 0

 private:
  Index low_ = 0;
  std::vector<double> values_;
};

ghostwire::Halo<2> halo_of(FieldKind kind);

struct Chunk {
  Chunk(ghostwire::World& world, const Decomposition& decomposition);

  Grid& field(Field f) { return *fields_[static_cast<std::size_t>(f)]; }

  const Decomposition& d;
  Index nx, ny;             // owned cells
  Index x_min = 0, y_min = 0, x_max, y_max;  // the reference's loop bounds, 0-based: x_max = nx - 1

  Grid density0, density1, energy0, energy1, pressure, viscosity, soundspeed;
  Grid xvel0, xvel1, yvel0, yvel1;
  Grid vol_flux_x, mass_flux_x, vol_flux_y, mass_flux_y;
  Grid volume, xarea, yarea;
  // The reference's work_array1..7 (vertex-sized scratch shared by the kernels).
  Grid work1, work2, work3, work4, work5, work6, work7;

  Line cellx, celly, vertexx, vertexy, celldx, celldy, vertexdx, vertexdy;

 private:
  std::array<Grid*, field_count> fields_{};
};

// Row access for kernels: rows(g)[k] points at row k's cell 0, so rows(g)[k][j] is local (k, j).
struct Rows {
  double* origin;
  Index stride;
  double* operator[](Index k) const { return origin + k * stride; }
};
inline Rows rows(Grid& g) { return {g.data(), g.stride(0)}; }

}  // namespace cloverleaf
