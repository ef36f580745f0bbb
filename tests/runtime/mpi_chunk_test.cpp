// SPDX-License-Identifier: BSD-3-Clause
// for_each_mpi_chunk (an internal helper: the library's own headers): the pieces cover the bytes
// exactly once, in order, each at most max_mpi_chunk, so every count fits MPI's int.
#include <gtest/gtest.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "runtime/mpi_check.hpp"

namespace {

using ghostwire::detail::for_each_mpi_chunk;
using ghostwire::detail::max_mpi_chunk;

std::vector<std::pair<std::size_t, int>> pieces_of(std::size_t bytes) {
  std::vector<std::pair<std::size_t, int>> pieces;
  for_each_mpi_chunk(bytes, [&](std::size_t offset, int count) { pieces.emplace_back(offset, count); });
  return pieces;
}

using Pieces = std::vector<std::pair<std::size_t, int>>;
constexpr int whole = static_cast<int>(max_mpi_chunk);

TEST(MpiChunk, NoBytesNoPiece) { EXPECT_TRUE(pieces_of(0).empty()); }

TEST(MpiChunk, SmallTransferIsOnePiece) { EXPECT_EQ(pieces_of(5), (Pieces{{0, 5}})); }

TEST(MpiChunk, ExactlyOneChunkIsOnePiece) { EXPECT_EQ(pieces_of(max_mpi_chunk), (Pieces{{0, whole}})); }

TEST(MpiChunk, OneByteMoreIsTwoPieces) {
  EXPECT_EQ(pieces_of(max_mpi_chunk + 1), (Pieces{{0, whole}, {max_mpi_chunk, 1}}));
}

TEST(MpiChunk, PiecesCoverBeyondIntCounts) {
  const std::size_t bytes = 3 * max_mpi_chunk + 7;  // more than INT_MAX
  Pieces expected{{0, whole}, {max_mpi_chunk, whole}, {2 * max_mpi_chunk, whole}, {3 * max_mpi_chunk, 7}};
  EXPECT_EQ(pieces_of(bytes), expected);
}

}  // namespace
