// SPDX-License-Identifier: BSD-3-Clause
// The 2-D and 3-D grid cases: a non-periodic block decomposition of N^d doubles over the ranks
// (MPI_Dims_create, its first dimension on the slowest axis; rank order x fastest), each block stored with `halo` ghost layers on every side
// in a C array a[z][y][x]. A rank sends the owned cells next to each side that has a neighbour and
// receives that neighbour's cells into its ghost layer: faces only, or faces, edges and corners.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <tuple>

#include "../usage_error.hpp"
#include "halo_case.hpp"

namespace gwbench::halo {
namespace {

using Vec = std::array<int, 3>;

struct Block {
  int dimensions = 2, halo = 1;
  Vec global{1, 1, 1}, procs{1, 1, 1}, coords{0, 0, 0}, offset{0, 0, 0}, extent{1, 1, 1}, padded{1, 1, 1};

  Block(int dims, int n, int h, const Vec& process_grid, int rank) : dimensions(dims), halo(h), procs(process_grid) {
    coords = {rank % procs[0], (rank / procs[0]) % procs[1], rank / (procs[0] * procs[1])};
    for (int a = 0; a < 3; ++a) {
      global[a] = a < dimensions ? n : 1;
      int base = global[a] / procs[a], extra = global[a] % procs[a];
      extent[a] = base + (coords[a] < extra ? 1 : 0);
      offset[a] = coords[a] * base + std::min(coords[a], extra);
      padded[a] = extent[a] + 2 * ghost(a);
    }
  }
  int ghost(int a) const { return a < dimensions ? halo : 0; }
  std::size_t cells() const { return static_cast<std::size_t>(padded[0]) * padded[1] * padded[2]; }
  // Local coordinates run from -halo to extent + halo - 1.
  std::size_t index(int x, int y, int z) const {
    return static_cast<std::size_t>((x + ghost(0)) + padded[0] * ((y + ghost(1)) + padded[1] * (z + ghost(2))));
  }
  int rank_at(const Vec& c) const { return c[0] + procs[0] * (c[1] + procs[1] * c[2]); }
  // The rank in direction d, or -1 beyond the (non-periodic) domain.
  int neighbour(const Vec& d) const {
    Vec c{};
    for (int a = 0; a < 3; ++a) {
      c[a] = coords[a] + d[a];
      if (c[a] < 0 || c[a] >= procs[a]) return -1;
    }
    return rank_at(c);
  }
  // The owned cells sent along d (to the neighbour in direction d).
  std::array<Vec, 2> send_box(const Vec& d) const {
    Vec low{}, size{};
    for (int a = 0; a < 3; ++a) {
      int h = ghost(a);
      if (d[a] < 0) low[a] = 0, size[a] = h;
      else if (d[a] > 0) low[a] = extent[a] - h, size[a] = h;
      else low[a] = 0, size[a] = extent[a];
    }
    return {low, size};
  }
  // The ghost cells on side e, filled by the neighbour in direction e.
  std::array<Vec, 2> ghost_box(const Vec& e) const {
    Vec low{}, size{};
    for (int a = 0; a < 3; ++a) {
      int h = ghost(a);
      if (e[a] < 0) low[a] = -h, size[a] = h;
      else if (e[a] > 0) low[a] = extent[a], size[a] = h;
      else low[a] = 0, size[a] = extent[a];
    }
    return {low, size};
  }
  ghostwire::Layout layout(const std::array<Vec, 2>& box) const {
    const Vec& low = box[0];
    const Vec& size = box[1];
    std::size_t start = index(low[0], low[1], low[2]);
    std::ptrdiff_t sy = padded[0], sz = static_cast<std::ptrdiff_t>(padded[0]) * padded[1];
    if (dimensions == 2)
      return ghostwire::Layout::box(start, {std::size_t(size[0]), std::size_t(size[1])}, {1, sy});
    return ghostwire::Layout::box(start, {std::size_t(size[0]), std::size_t(size[1]), std::size_t(size[2])},
                                  {1, sy, sz});
  }
  std::int64_t global_id(int x, int y, int z) const {
    return (offset[0] + x) + static_cast<std::int64_t>(global[0]) * ((offset[1] + y) + static_cast<std::int64_t>(global[1]) * (offset[2] + z));
  }
};

// Directions in {-1,0,1}^d except 0; faces only unless `corners`.
std::vector<Vec> directions(int dimensions, bool corners) {
  std::vector<Vec> result;
  for (int dz = (dimensions > 2 ? -1 : 0); dz <= (dimensions > 2 ? 1 : 0); ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        int nonzero = (dx != 0) + (dy != 0) + (dz != 0);
        if (nonzero == 0 || (!corners && nonzero > 1)) continue;
        result.push_back({dx, dy, dz});
      }
  return result;
}

int tag_of(const Vec& d) { return (d[0] + 1) + 3 * (d[1] + 1) + 9 * (d[2] + 1); }
Vec opposite(const Vec& d) { return {-d[0], -d[1], -d[2]}; }

}  // namespace

HaloCase make_grid_case(const CaseSpec& spec, int rank, int size) {
  const int dims = spec.kind == CaseSpec::Kind::grid2d ? 2 : 3;
  int grid[3] = {0, 0, 0};
  MPI_Dims_create(size, dims, grid);
  // As MPI_Cart_create lays out a C array: dimension 0 of the process grid (the largest) splits the
  // slowest array axis, so 2 ranks split rows (contiguous halos), as an MPI programmer would.
  Vec procs{1, 1, 1};
  for (int a = 0; a < dims; ++a) procs[a] = grid[dims - 1 - a];
  for (int a = 0; a < dims; ++a)
    if (spec.size / procs[a] < spec.halo)
      throw UsageError("case " + spec.name + ": " + std::to_string(spec.size) + " cells split over " +
                       std::to_string(procs[a]) + " ranks leave blocks thinner than the halo width " +
                       std::to_string(spec.halo) + "; choose a larger N or fewer ranks");
  Block me(dims, spec.size, spec.halo, procs, rank);

  HaloCase c;
  c.name = spec.name;
  std::string shape = std::to_string(procs[0]);
  for (int a = 1; a < dims; ++a) shape += 'x' + std::to_string(procs[a]);
  c.description = std::to_string(spec.size) + "^" + std::to_string(dims) + " doubles on " + shape + " ranks, halo " +
                  std::to_string(spec.halo) + ", " + (spec.corners ? "faces, edges and corners" : "faces");
  c.elements = me.cells();
  c.grid = {dims, spec.size, spec.halo, spec.corners, procs};
  c.global_elements = 1;
  for (int a = 0; a < dims; ++a) c.global_elements *= spec.size;

  for (const Vec& d : directions(dims, spec.corners)) {
    int to = me.neighbour(d);
    if (to >= 0) c.sends.push_back({to, tag_of(d), me.layout(me.send_box(d))});
    // The ghost cells on side d come from the neighbour there, which sends along -d.
    if (to >= 0) {
      Block there(dims, spec.size, spec.halo, procs, to);
      Receive r;
      r.neighbour = to;
      r.tag = tag_of(opposite(d));
      r.layout = me.layout(me.ghost_box(d));
      r.source = there.layout(there.send_box(opposite(d)));
      c.receives.push_back(std::move(r));
    }
  }
  auto order = [](const Message& a, const Message& b) { return std::tie(a.neighbour, a.tag) < std::tie(b.neighbour, b.tag); };
  std::sort(c.sends.begin(), c.sends.end(), order);
  std::sort(c.receives.begin(), c.receives.end(), order);

  // Owned cells hold their global id; ghost cells the id of the cell they mirror, where a
  // neighbour fills them; everything else (domain boundary, corners of a faces-only exchange) -1.
  c.ids.assign(c.elements, -1);
  c.ghost.assign(c.elements, 1);
  for (int z = 0; z < me.extent[2]; ++z)
    for (int y = 0; y < me.extent[1]; ++y)
      for (int x = 0; x < me.extent[0]; ++x) {
        std::size_t i = me.index(x, y, z);
        c.ids[i] = me.global_id(x, y, z);
        c.ghost[i] = 0;
      }
  const auto px = static_cast<std::size_t>(me.padded[0]), py = static_cast<std::size_t>(me.padded[1]);
  for (const Receive& r : c.receives)
    r.layout.for_each_run([&](std::size_t first, std::size_t count) {
      for (std::size_t cell = first; cell < first + count; ++cell) {
        int x = static_cast<int>(cell % px) - me.ghost(0);
        int y = static_cast<int>(cell / px % py) - me.ghost(1);
        int z = static_cast<int>(cell / px / py) - me.ghost(2);
        c.ids[cell] = me.global_id(x, y, z);
      }
    });
  return c;
}

}  // namespace gwbench::halo
