// SPDX-License-Identifier: BSD-3-Clause
#include "halo_pieces.hpp"

#include <algorithm>

#include "grid_state.hpp"

namespace ghostwire::detail {
namespace {

Index floor_divide(Index a, Index b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

struct Stretch {  // a run of cells of one dimension mirrored from one unit
  int unit;
  Index start, end;  // unwrapped global coordinates
  Index shift;       // start - shift is the wrapped coordinate
};

// Cuts the unwrapped interval [a, b) of dimension d by owning unit.
void split(const DimensionMap& m, bool periodic, Index a, Index b, std::vector<Stretch>& out) {
  out.clear();
  const Index n = m.extent;
  Index g = a;
  while (g < b) {
    Index wraps = floor_divide(g, n);
    if (wraps != 0 && !periodic) {  // beyond an open boundary: nobody sends these
      g = wraps < 0 ? std::min<Index>(b, 0) : b;
      continue;
    }
    Index shift = wraps * n, wrapped = g - shift;
    Index end = std::min(b, m.block_end(wrapped) + shift);
    out.push_back({m.owner(wrapped), g, end, shift});
    g = end;
  }
}

}  // namespace

GhostLayers all_layers(const HaloSpec& halo) {
  GhostLayers layers;
  layers.dimensions = halo.dimensions;
  for (int d = 0; d < halo.dimensions; ++d) {
    layers.low[d] = layers.high[d] = halo.width[d];
    layers.periodic[d] = halo.periodic[d];
  }
  layers.stencil = halo.stencil;
  return layers;
}

void ghost_pieces(const PatternCore& pattern, const GhostLayers& layers, int receiver, std::vector<GhostPiece>& out) {
  const int n = pattern.dimensions();
  BlockLayout mine = block_layout(pattern, nullptr, receiver, 0);  // owned cells only: no padding needed
  for (int d = 0; d < n; ++d)
    if (mine.extent[d] == 0) return;

  int directions = 1;
  for (int d = 0; d < n; ++d) directions *= 3;
  std::vector<Stretch> stretches[3];
  for (int code = 0; code < directions; ++code) {
    int direction[3] = {0, 0, 0}, nonzero = 0;
    bool skip = false;
    for (int d = n - 1, c = code; d >= 0; --d, c /= 3) {
      direction[d] = c % 3 - 1;
      if (direction[d] != 0) {
        ++nonzero;
        skip |= (direction[d] < 0 ? layers.low[d] : layers.high[d]) == 0;
      }
    }
    if (nonzero == 0 || skip || (layers.stencil == Stencil::faces && nonzero > 1)) continue;
    bool empty = false;
    for (int d = 0; d < n && !empty; ++d) {
      Index low = mine.low[d], high = mine.low[d] + mine.extent[d];
      Index a = direction[d] < 0 ? low - layers.low[d] : (direction[d] > 0 ? high : low);
      Index b = direction[d] < 0 ? low : (direction[d] > 0 ? high + layers.high[d] : high);
      split(pattern.map(d), layers.periodic[d], a, b, stretches[d]);
      empty = stretches[d].empty();
    }
    if (empty) continue;
    // Every combination of one stretch per dimension is one sender's piece.
    std::size_t pick[3] = {0, 0, 0};
    for (;;) {
      GhostPiece piece;
      int units[max_dimensions];
      for (int d = 0; d < n; ++d) {
        const Stretch& s = stretches[d][pick[d]];
        units[d] = s.unit;
        const DimensionMap& m = pattern.map(d);
        Index sender_low = std::min(m.extent, static_cast<Index>(s.unit) * m.block);
        piece.receiver_low[d] = s.start - mine.low[d];
        piece.sender_low[d] = s.start - s.shift - sender_low;
        piece.extent[d] = s.end - s.start;
      }
      piece.sender = pattern.rank_at(units);
      out.push_back(piece);
      int d = n - 1;
      while (d >= 0 && ++pick[d] == stretches[d].size()) pick[d--] = 0;
      if (d < 0) break;
    }
  }
}

std::vector<int> possible_receivers(const PatternCore& pattern, const GhostLayers& layers, int sender) {
  const int n = pattern.dimensions();
  BlockLayout mine = block_layout(pattern, nullptr, sender, 0);
  std::vector<int> result;
  for (int d = 0; d < n; ++d)
    if (mine.extent[d] == 0) return result;
  std::vector<int> candidates[3];
  for (int d = 0; d < n; ++d) {
    const DimensionMap& m = pattern.map(d);
    Index low = mine.low[d], high = low + mine.extent[d], extent = m.extent;
    for (int unit = 0; unit < m.units; ++unit) {
      Index unit_extent = m.local_extent(unit);
      if (unit_extent == 0) continue;
      Index unit_low = static_cast<Index>(unit) * m.block, unit_high = unit_low + unit_extent;
      // The unit's cells and the ghost cells the update fills there.
      Index reach_low = unit_low - layers.low[d], reach_high = unit_high + layers.high[d];
      bool meets;
      if (layers.periodic[d]) {
        // Some copy of [low, high) shifted by k * extent meets [reach_low, reach_high).
        Index k_min = floor_divide(reach_low - high, extent) + 1;
        Index k_max = -floor_divide(-(reach_high - low), extent) - 1;
        meets = k_min <= k_max;
      } else {
        meets = low < reach_high && high > reach_low;
      }
      if (meets) candidates[d].push_back(unit);
    }
  }
  std::size_t pick[3] = {0, 0, 0};
  for (int d = 0; d < n; ++d)
    if (candidates[d].empty()) return result;
  for (;;) {
    int units[max_dimensions];
    for (int d = 0; d < n; ++d) units[d] = candidates[d][pick[d]];
    result.push_back(pattern.rank_at(units));
    int d = n - 1;
    while (d >= 0 && ++pick[d] == candidates[d].size()) pick[d--] = 0;
    if (d < 0) break;
  }
  std::sort(result.begin(), result.end());
  return result;
}

}  // namespace ghostwire::detail
