// SPDX-License-Identifier: BSD-3-Clause
// A slot's pieces in commit's three forms (slot_pieces.hpp).
#include "halo/commit/slot_pieces.hpp"

#include <algorithm>

#include "ghostwire/error.hpp"
#include "runtime/segment_state.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {

Signature signature_of(const PlanState& p, const std::vector<PieceSpec>& pieces) {
  Signature s;
  for (const PieceSpec& piece : pieces) {
    const std::uint64_t size = p.regions[static_cast<std::size_t>(piece.region)].element_size;
    if (piece.layout.count() == 0) continue;
    if (!s.parts.empty() && s.parts.back().first == size)
      s.parts.back().second += piece.layout.count();
    else
      s.parts.emplace_back(size, piece.layout.count());
  }
  return s;
}

std::vector<Piece> pieces_of(const PlanState& p, const std::vector<PieceSpec>& specs) {
  std::vector<Piece> pieces;
  for (const PieceSpec& spec : specs) {
    const RegionSpec& region = p.regions[static_cast<std::size_t>(spec.region)];
    pieces.push_back({region.base, region.element_size, &spec.layout});
  }
  return pieces;
}

std::vector<PieceLocation> locations_of(const PlanState& p, const std::vector<PieceSpec>& specs) {
  std::vector<PieceLocation> locations;
  for (const PieceSpec& spec : specs) {
    const RegionSpec& region = p.regions[static_cast<std::size_t>(spec.region)];
    locations.push_back({region.segment, region.offset_bytes, region.element_size, spec.layout});
  }
  return locations;
}

MappedPieces map_pieces(WorldState& w, int rank, const std::vector<PieceLocation>& locations) {
  MappedPieces mapped;
  mapped.layouts.reserve(locations.size());
  for (const PieceLocation& location : locations) mapped.layouts.push_back(location.layout);
  for (std::size_t k = 0; k < locations.size(); ++k) {
    SegmentState& segment = w.segment(static_cast<int>(locations[k].segment), rank);
    const PieceLocation& piece = locations[k];
    const std::uint64_t reach = piece.offset_bytes + piece.layout.end() * piece.element_size;
    if (reach > segment.sizes[static_cast<std::size_t>(rank)])
      raise(Errc::internal, "rank " + std::to_string(rank) + " described a piece reaching byte " + std::to_string(reach) +
                                " of its part of segment " + std::to_string(piece.segment) + ", which has " +
                                std::to_string(segment.sizes[static_cast<std::size_t>(rank)]) + " bytes");
    std::byte* base = segment.peer_base[static_cast<std::size_t>(rank)];
    mapped.pieces.push_back({base + segment.data_offset + locations[k].offset_bytes,
                             static_cast<std::size_t>(locations[k].element_size), &mapped.layouts[k]});
  }
  return mapped;
}

SlicedPieces slice_pieces(const PlanState& p, const std::vector<PieceSpec>& specs, const std::vector<SplitRun>& runs) {
  SlicedPieces sliced;
  std::vector<const RegionSpec*> regions[2];
  std::size_t run = 0;
  std::uint64_t left = runs.empty() ? 0 : runs[0].bytes;  // bytes of the current run not yet placed
  for (const PieceSpec& spec : specs) {
    const RegionSpec& region = p.regions[static_cast<std::size_t>(spec.region)];
    std::vector<Layout::Range> ranges[2];
    spec.layout.for_each_run([&](std::size_t first, std::size_t count) {
      while (count > 0) {
        while (left == 0 && run + 1 < runs.size()) left = runs[++run].bytes;
        const std::uint64_t elements = left / region.element_size;
        if (elements == 0 || left % region.element_size != 0)
          raise(Errc::internal, "a split message's run boundary falls inside an element of " +
                                    std::to_string(region.element_size) + " bytes");
        const std::size_t take = std::min<std::size_t>(count, elements);
        auto& part = ranges[runs[run].part];
        if (!part.empty() && part.back().start + part.back().count == first)
          part.back().count += take;
        else
          part.push_back({first, take});
        first += take;
        count -= take;
        left -= take * region.element_size;
      }
    });
    for (int k = 0; k < 2; ++k) {
      if (ranges[k].empty()) continue;
      sliced.layouts[k].push_back(Layout::ranges(std::move(ranges[k])));
      regions[k].push_back(&region);
    }
  }
  for (int k = 0; k < 2; ++k)
    for (std::size_t i = 0; i < sliced.layouts[k].size(); ++i)
      sliced.pieces[k].push_back({regions[k][i]->base, regions[k][i]->element_size, &sliced.layouts[k][i]});
  return sliced;
}

}  // namespace ghostwire::detail
