// SPDX-License-Identifier: BSD-3-Clause
// A periodic 2-D grid whose every cell holds a value unique to its global position and round, so
// that after a halo update each face ghost cell can be checked against the cell it copies: a stale
// round, a misplaced cell or another job's data fails the check.
#pragma once

#include "ghostwire/dist.hpp"

namespace gwreliab {

namespace gw = ghostwire;

inline double cell_value(const gw::Point<2>& global, const gw::Point<2>& extents, long round) {
  gw::Index i = (global[0] % extents[0] + extents[0]) % extents[0];
  gw::Index j = (global[1] % extents[1] + extents[1]) % extents[1];
  return static_cast<double>(i * extents[1] + j) + static_cast<double>(round) * static_cast<double>(extents[0] * extents[1]);
}

inline void fill_owned(gw::Grid<double, 2>& grid, const gw::Point<2>& extents, long round) {
  const gw::Point<2> e = grid.local_extents(), o = grid.offset();
  for (gw::Index i = 0; i < e[0]; ++i)
    for (gw::Index j = 0; j < e[1]; ++j) grid(i, j) = cell_value({o[0] + i, o[1] + j}, extents, round);
}

// Face ghost cells (the faces stencil) that do not hold their source cell's value of `round`.
inline long wrong_ghosts(const gw::Grid<double, 2>& grid, const gw::Point<2>& extents, long round) {
  const gw::Point<2> e = grid.local_extents(), o = grid.offset();
  long wrong = 0;
  auto check = [&](gw::Index i, gw::Index j) {
    if (grid(i, j) != cell_value({o[0] + i, o[1] + j}, extents, round)) ++wrong;
  };
  for (gw::Index i = 0; i < e[0]; ++i) { check(i, -1); check(i, e[1]); }
  for (gw::Index j = 0; j < e[1]; ++j) { check(-1, j); check(e[0], j); }
  return wrong;
}

}  // namespace gwreliab
