// SPDX-License-Identifier: BSD-3-Clause
// A slot's pieces (its send or receive layout over registered regions) as commit needs them: the
// signature both sides compare, the pieces a CopyProgram copies, where they live for a node peer.
#pragma once

#include <cstddef>
#include <vector>

#include "halo/commit/descriptor.hpp"
#include "halo/copy_program.hpp"
#include "halo/plan_state.hpp"

namespace ghostwire::detail {

Signature signature_of(const PlanState& p, const std::vector<PieceSpec>& pieces);
inline std::size_t message_bytes(const PlanState& p, const std::vector<PieceSpec>& pieces) {
  return static_cast<std::size_t>(signature_of(p, pieces).bytes());
}
std::vector<Piece> pieces_of(const PlanState& p, const std::vector<PieceSpec>& pieces);
std::vector<PieceLocation> locations_of(const PlanState& p, const std::vector<PieceSpec>& pieces);

// Pieces of a node peer mapped into this process; `pieces` point into `layouts`, so a MappedPieces
// moves but never copies.
struct MappedPieces {
  MappedPieces() = default;
  MappedPieces(MappedPieces&&) = default;
  MappedPieces(const MappedPieces&) = delete;
  std::vector<Layout> layouts;
  std::vector<Piece> pieces;
};
MappedPieces map_pieces(WorldState& w, int rank, const std::vector<PieceLocation>& locations);

// This rank's receive pieces of a message the sender split, cut along its runs: part k's elements
// in message order (as ranges of the same regions).
struct SlicedPieces {
  SlicedPieces() = default;
  SlicedPieces(SlicedPieces&&) = default;
  SlicedPieces& operator=(SlicedPieces&&) = default;
  SlicedPieces(const SlicedPieces&) = delete;
  std::vector<Layout> layouts[2];
  std::vector<Piece> pieces[2];
};
SlicedPieces slice_pieces(const PlanState& p, const std::vector<PieceSpec>& pieces, const std::vector<SplitRun>& runs);

}  // namespace ghostwire::detail
