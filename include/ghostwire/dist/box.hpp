// SPDX-License-Identifier: BSD-3-Clause
// Index, Box: the coordinates of distributed containers.
//
// Coordinates are signed (ghost cells have negative local indices) and listed slowest dimension
// first, as in C: in a 2-D grid (i, j), j is contiguous. A Box is a rectangle of cells given by its
// first cell and its extent per dimension; an extent of 0 makes it empty.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>

namespace ghostwire {

using Index = std::ptrdiff_t;

template <int N>
using Point = std::array<Index, N>;

template <int N>
struct Box {
  Point<N> low{};     // first cell
  Point<N> extent{};  // cells per dimension

  Point<N> high() const noexcept {  // one past the last cell
    Point<N> h{};
    for (int d = 0; d < N; ++d) h[d] = low[d] + extent[d];
    return h;
  }
  Index size() const noexcept {
    Index n = 1;
    for (int d = 0; d < N; ++d) n *= extent[d] > 0 ? extent[d] : 0;
    return n;
  }
  bool empty() const noexcept { return size() == 0; }
  bool contains(const Point<N>& p) const noexcept {
    for (int d = 0; d < N; ++d)
      if (p[d] < low[d] || p[d] >= low[d] + extent[d]) return false;
    return true;
  }
  Box intersect(const Box& other) const noexcept {
    Box b;
    for (int d = 0; d < N; ++d) {
      b.low[d] = std::max(low[d], other.low[d]);
      b.extent[d] = std::max<Index>(0, std::min(low[d] + extent[d], other.low[d] + other.extent[d]) - b.low[d]);
    }
    return b;
  }
  // The box without `depth` cells on every side (the cells a stencil of that reach can update
  // without ghost cells); empty when the box is too thin.
  Box shrink(Index depth) const noexcept {
    Box b;
    for (int d = 0; d < N; ++d) {
      b.low[d] = low[d] + depth;
      b.extent[d] = std::max<Index>(0, extent[d] - 2 * depth);
    }
    return b;
  }
  // The cells of this box that are not in shrink(depth), as 2N disjoint boxes (some may be empty):
  // for dimension d, the slab of the low side, then the high side; slabs of later dimensions leave
  // out what earlier ones cover.
  std::array<Box, 2 * N> rim(Index depth) const noexcept {
    std::array<Box, 2 * N> slabs{};
    Box rest = *this;  // what is left after the slabs of earlier dimensions
    for (int d = 0; d < N; ++d) {
      Index inner = std::min(depth, rest.extent[d]);
      Box lowside = rest, highside = rest;
      lowside.extent[d] = inner;
      Index high_first = std::max(rest.low[d] + inner, rest.low[d] + rest.extent[d] - depth);
      highside.low[d] = high_first;
      highside.extent[d] = rest.low[d] + rest.extent[d] - high_first;
      slabs[static_cast<std::size_t>(2 * d)] = lowside;
      slabs[static_cast<std::size_t>(2 * d + 1)] = highside;
      rest.low[d] += inner;
      rest.extent[d] = high_first - rest.low[d];
    }
    return slabs;
  }
  bool operator==(const Box&) const = default;
};

}  // namespace ghostwire
