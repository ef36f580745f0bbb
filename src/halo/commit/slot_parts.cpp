// SPDX-License-Identifier: BSD-3-Clause
// A slot's facts and its split (slot_parts.hpp). Why split: docs/plans.md, "Rows and columns to one
// neighbour".
#include "halo/commit/slot_parts.hpp"

#include <algorithm>
#include <cstdint>

#include "runtime/world_state.hpp"

namespace ghostwire::detail {

bool all_in_segments(const PlanState& p, const std::vector<PieceSpec>& pieces) {
  return std::all_of(pieces.begin(), pieces.end(),
                     [&](const PieceSpec& s) { return p.regions[static_cast<std::size_t>(s.region)].segment >= 0; });
}

bool dense(const PlanState& p, const std::vector<PieceSpec>& pieces) {
  constexpr std::size_t cache_line = 64;
  std::size_t lines = 0, bytes = 0;
  for (const PieceSpec& piece : pieces) {
    const RegionSpec& region = p.regions[static_cast<std::size_t>(piece.region)];
    piece.layout.for_each_run([&](std::size_t first, std::size_t count) {
      auto address = reinterpret_cast<std::uintptr_t>(region.base + first * region.element_size);
      std::size_t length = count * region.element_size;
      lines += (address + length - 1) / cache_line - address / cache_line + 1;
      bytes += length;
    });
  }
  return lines * cache_line <= 2 * bytes;
}

bool dense_piece(const PlanState& p, const PieceSpec& piece) { return dense(p, std::vector<PieceSpec>{piece}); }

bool cores_shared(const PlanState& p) { return p.w->machine_threads > p.w->cores && !p.acknowledge_by_reply; }

bool slot_between_nodes(const PlanState& p, std::size_t slot) {
  return !p.world->shares_memory_with(p.neighbours[slot / p.channels]);
}

bool split_wanted(const PlanState& p, std::size_t slot) {
  const auto& pieces = p.send_pieces[slot];
  if (p.acknowledge_by_reply || p.w->settings.intra_path != IntraPath::automatic || slot_between_nodes(p, slot) ||
      p.neighbours[slot / p.channels] == p.w->rank || !all_in_segments(p, pieces) || cores_shared(p))
    return false;
  bool some_dense = false, some_sparse = false;
  for (const PieceSpec& piece : pieces) {
    if (piece.layout.count() == 0) continue;
    (dense_piece(p, piece) ? some_dense : some_sparse) = true;
  }
  return some_dense && some_sparse;
}

SplitPieces split_pieces(const PlanState& p, std::size_t slot) {
  SplitPieces split;
  for (const PieceSpec& piece : p.send_pieces[slot]) {
    if (piece.layout.count() == 0) continue;
    const std::uint64_t part = dense_piece(p, piece) ? 0 : 1;
    const std::uint64_t bytes = piece.layout.count() * p.regions[static_cast<std::size_t>(piece.region)].element_size;
    split.parts[part].push_back(piece);
    if (!split.runs.empty() && split.runs.back().part == part)
      split.runs.back().bytes += bytes;
    else
      split.runs.push_back({bytes, part});
  }
  return split;
}

}  // namespace ghostwire::detail
