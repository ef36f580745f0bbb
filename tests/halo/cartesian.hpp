// SPDX-License-Identifier: BSD-3-Clause
// A Cartesian block decomposition of a 2-D or 3-D global grid with halo width h, for tests: which
// neighbour lies in each direction, the boxes a rank sends and receives, and the value every cell
// must hold (its global index, so a stale or misplaced ghost cell shows).
#pragma once

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include "ghostwire/layout.hpp"

namespace gwtest {

struct Decomposition {
  int dimensions = 2;
  std::array<int, 3> global{1, 1, 1};
  int halo = 1;
  bool periodic = true;
  bool corners = true;  // faces, edges and corners; false: faces only

  std::array<int, 3> procs{1, 1, 1}, coords{0, 0, 0}, offset{0, 0, 0}, extent{1, 1, 1}, padded{1, 1, 1};
  int rank = 0;

  void decompose(int rank_, int size) {
    rank = rank_;
    int dims[3] = {0, 0, 0};
    MPI_Dims_create(size, dimensions, dims);
    for (int a = 0; a < 3; ++a) procs[a] = a < dimensions ? dims[a] : 1;
    // Rank order: x fastest.
    coords = {rank % procs[0], (rank / procs[0]) % procs[1], rank / (procs[0] * procs[1])};
    for (int a = 0; a < 3; ++a) {
      int g = a < dimensions ? global[a] : 1;
      int base = g / procs[a], extra = g % procs[a];
      extent[a] = base + (coords[a] < extra ? 1 : 0);
      offset[a] = coords[a] * base + std::min(coords[a], extra);
      padded[a] = extent[a] + (a < dimensions ? 2 * halo : 0);
    }
  }
  int ghost(int a) const { return a < dimensions ? halo : 0; }
  std::size_t cells() const { return static_cast<std::size_t>(padded[0]) * padded[1] * padded[2]; }
  // Local coordinates run from -halo to extent + halo - 1.
  std::size_t index(int x, int y, int z) const {
    return static_cast<std::size_t>((x + ghost(0)) + padded[0] * ((y + ghost(1)) + padded[1] * (z + ghost(2))));
  }
  std::size_t global_cells() const {
    std::size_t n = 1;
    for (int a = 0; a < dimensions; ++a) n *= static_cast<std::size_t>(global[a]);
    return n;
  }

  // Directions in {-1,0,1}^dimensions except 0; faces only unless `corners`.
  std::vector<std::array<int, 3>> directions() const {
    std::vector<std::array<int, 3>> result;
    for (int dz = (dimensions > 2 ? -1 : 0); dz <= (dimensions > 2 ? 1 : 0); ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          int nonzero = (dx != 0) + (dy != 0) + (dz != 0);
          if (nonzero == 0 || (!corners && nonzero > 1)) continue;
          result.push_back({dx, dy, dz});
        }
    return result;
  }
  // Channel of a direction of travel: its position among all 3^d directions.
  static std::size_t channel_of(const std::array<int, 3>& d) {
    return static_cast<std::size_t>((d[0] + 1) + 3 * (d[1] + 1) + 9 * (d[2] + 1));
  }
  static constexpr std::size_t channel_count = 27;

  int neighbour(const std::array<int, 3>& d) const {
    std::array<int, 3> c{};
    for (int a = 0; a < 3; ++a) {
      c[a] = coords[a] + d[a];
      if (c[a] < 0 || c[a] >= procs[a]) {
        if (!periodic) return -1;
        c[a] = (c[a] + procs[a]) % procs[a];
      }
    }
    return c[0] + procs[0] * (c[1] + procs[1] * c[2]);
  }
  std::vector<int> neighbour_ranks() const {
    std::vector<int> ranks;
    for (const auto& d : directions()) {
      int r = neighbour(d);
      if (r >= 0 && std::find(ranks.begin(), ranks.end(), r) == ranks.end()) ranks.push_back(r);
    }
    return ranks;
  }

  struct Box {
    std::array<int, 3> low, size;
  };
  // Owned cells sent along direction d.
  Box send_box(const std::array<int, 3>& d) const {
    Box b{};
    for (int a = 0; a < 3; ++a) {
      int h = ghost(a);
      if (d[a] < 0) b.low[a] = 0, b.size[a] = h;
      else if (d[a] > 0) b.low[a] = extent[a] - h, b.size[a] = h;
      else b.low[a] = 0, b.size[a] = extent[a];
    }
    return b;
  }
  // Ghost cells on side e, filled by the neighbour in direction e (which sends along -e).
  Box ghost_box(const std::array<int, 3>& e) const {
    Box b{};
    for (int a = 0; a < 3; ++a) {
      int h = ghost(a);
      if (e[a] < 0) b.low[a] = -h, b.size[a] = h;
      else if (e[a] > 0) b.low[a] = extent[a], b.size[a] = h;
      else b.low[a] = 0, b.size[a] = extent[a];
    }
    return b;
  }

  enum class Kind { box, indices, ranges };
  ghostwire::Layout layout(const Box& b, Kind kind) const {
    std::size_t start = index(b.low[0], b.low[1], b.low[2]);
    if (kind == Kind::box) {
      std::ptrdiff_t sx = 1, sy = padded[0], sz = static_cast<std::ptrdiff_t>(padded[0]) * padded[1];
      if (dimensions == 2)
        return ghostwire::Layout::box(start, {std::size_t(b.size[0]), std::size_t(b.size[1])}, {sx, sy});
      return ghostwire::Layout::box(start, {std::size_t(b.size[0]), std::size_t(b.size[1]), std::size_t(b.size[2])},
                                    {sx, sy, sz});
    }
    std::vector<std::size_t> cells;
    std::vector<ghostwire::Layout::Range> rows;
    for (int z = b.low[2]; z < b.low[2] + b.size[2]; ++z)
      for (int y = b.low[1]; y < b.low[1] + b.size[1]; ++y) {
        rows.push_back({index(b.low[0], y, z), static_cast<std::size_t>(b.size[0])});
        for (int x = b.low[0]; x < b.low[0] + b.size[0]; ++x) cells.push_back(index(x, y, z));
      }
    return kind == Kind::indices ? ghostwire::Layout::indices(std::move(cells)) : ghostwire::Layout::ranges(std::move(rows));
  }

  // The value a cell of global coordinates g holds in round `round`; -1 for cells outside the
  // domain (non-periodic ghosts).
  double value(std::array<int, 3> g, int round) const {
    for (int a = 0; a < dimensions; ++a) {
      if (g[a] < 0 || g[a] >= global[a]) {
        if (!periodic) return -1;
        g[a] = (g[a] + global[a]) % global[a];
      }
    }
    double linear = g[0] + static_cast<double>(global[0]) * (g[1] + static_cast<double>(global[1]) * g[2]);
    return linear + static_cast<double>(round) * static_cast<double>(global_cells());
  }

  // Which side of the block a local cell is on, per axis: -1, 0 (owned range) or +1.
  std::array<int, 3> side(int x, int y, int z) const {
    int c[3] = {x, y, z};
    std::array<int, 3> s{};
    for (int a = 0; a < 3; ++a) s[a] = c[a] < 0 ? -1 : (c[a] >= extent[a] ? 1 : 0);
    return s;
  }
  // What a cell must hold after an exchange of round `round` (sentinel where nothing arrives).
  double expected(int x, int y, int z, int round, double sentinel) const {
    auto s = side(x, y, z);
    int nonzero = (s[0] != 0) + (s[1] != 0) + (s[2] != 0);
    std::array<int, 3> g{offset[0] + x, offset[1] + y, offset[2] + z};
    if (nonzero == 0) return value(g, round);
    if (!corners && nonzero > 1) return sentinel;
    if (neighbour(s) < 0) return sentinel;
    return value(g, round);
  }
};

}  // namespace gwtest
