// SPDX-License-Identifier: BSD-3-Clause
// A slot's pieces in commit's three forms (slot_pieces.hpp).
#include "halo/commit/slot_pieces.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

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

namespace {

// The sender's split runs, consumed in message order by the receiver's elements. A run may hold
// elements of several sizes (a double grid's row, then an int32 grid's row): only its boundaries
// must fall between elements, so each piece takes what fits of the run's bytes, whatever is left
// of them after its last element (docs/internals/plans.md, "Split messages").
class RunCursor {
 public:
  explicit RunCursor(const std::vector<SplitRun>& runs) : runs_(runs), left_(runs.empty() ? 0 : runs[0].bytes) {}

  struct Take {
    std::size_t elements;  // at least one
    std::uint64_t part;
  };
  // How many of the next `count` elements of `element_size` bytes lie in the current run, and its part.
  Take take(std::size_t count, std::size_t element_size) {
    while (left_ == 0 && run_ + 1 < runs_.size()) left_ = runs_[++run_].bytes;
    if (left_ == 0) raise(Errc::internal, "a split message's runs end before the receiver's pieces do");
    if (left_ < element_size)
      raise(Errc::internal, "a split message's run boundary falls inside an element of " +
                                std::to_string(element_size) + " bytes (" + std::to_string(left_) +
                                " bytes of run " + std::to_string(run_) + " left)");
    const std::size_t elements = std::min<std::uint64_t>(count, left_ / element_size);
    left_ -= elements * element_size;
    return {elements, runs_[run_].part};
  }
  bool done() const { return left_ == 0 && run_ + 1 >= runs_.size(); }

 private:
  const std::vector<SplitRun>& runs_;
  std::size_t run_ = 0;
  std::uint64_t left_;  // bytes of the current run no element has taken yet
};

void append(std::vector<Layout::Range>& ranges, std::size_t first, std::size_t count) {
  if (!ranges.empty() && ranges.back().start + ranges.back().count == first)
    ranges.back().count += count;
  else
    ranges.push_back({first, count});
}

}  // namespace

SlicedPieces slice_pieces(const PlanState& p, const std::vector<PieceSpec>& specs, const std::vector<SplitRun>& runs) {
  SlicedPieces sliced;
  std::vector<const RegionSpec*> regions[2];
  RunCursor cursor(runs);
  for (const PieceSpec& spec : specs) {
    const RegionSpec& region = p.regions[static_cast<std::size_t>(spec.region)];
    std::vector<Layout::Range> ranges[2];
    spec.layout.for_each_run([&](std::size_t first, std::size_t count) {
      while (count > 0) {
        const RunCursor::Take take = cursor.take(count, region.element_size);
        append(ranges[take.part], first, take.elements);
        first += take.elements;
        count -= take.elements;
      }
    });
    for (int k = 0; k < 2; ++k) {
      if (ranges[k].empty()) continue;
      sliced.layouts[k].push_back(Layout::ranges(std::move(ranges[k])));
      regions[k].push_back(&region);
    }
  }
  if (!cursor.done()) raise(Errc::internal, "a split message's runs hold more bytes than the receiver's pieces");
  for (int k = 0; k < 2; ++k)
    for (std::size_t i = 0; i < sliced.layouts[k].size(); ++i)
      sliced.pieces[k].push_back({regions[k][i]->base, regions[k][i]->element_size, &sliced.layouts[k][i]});
  return sliced;
}

}  // namespace ghostwire::detail
