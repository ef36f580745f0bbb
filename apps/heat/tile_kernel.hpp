// SPDX-License-Identifier: BSD-3-Clause
// The Gauss-Seidel update. Two kernels, one arithmetic:
//
//  - relax_rows: the plain loop, row by row, left to right. seq uses it, so the reference result
//    comes from the simplest possible code.
//  - relax_block: the fast kernel (skewed_kernel.hpp) that every other variant uses, so that they
//    differ only in traversal order and communication. It relaxes a rectangle with several rows
//    or columns in flight at once. Variants call it on the largest rectangles their communication
//    allows (a column block, the tile rows between the first and the last, part of a tile).
//
// Both compute every point as
//   u[x][y] = 0.25 * (u[x-1][y] + u[x+1][y] + u[x][y-1] + u[x][y+1])
// summed in exactly this order (the original's), after its upper and left neighbours and before
// its lower and right ones. Any traversal with that property gives the bits of the lexicographic
// sweep, which is why tiles, bands, column blocks and skewed kernels change no bit.
//
// See docs/heat.md, "The kernel".
#pragma once

#include "band.hpp"
#include "decomposition.hpp"
#include "skewed_kernel.hpp"

namespace heat {

// Rows [first_row, first_row + row_count) x columns [first_col, first_col + col_count) of the
// band, row by row, left to right. The left neighbour is carried in a register: it is the value
// just written.
inline void relax_rows(Band& band, int first_row, int row_count, int first_col, int col_count) {
  const std::ptrdiff_t stride = band.stride();
  const int end_col = first_col + col_count;
  for (int x = first_row; x < first_row + row_count; ++x) {
    double* __restrict row = band.row(x);
    const double* __restrict above = row - stride;
    const double* __restrict below = row + stride;
    double left = row[first_col - 1];
    for (int y = first_col; y < end_col; ++y) {
      const double value = 0.25 * (above[y] + below[y] + left + row[y + 1]);
      row[y] = value;
      left = value;
    }
  }
}

// The same rectangle with the fast kernel: column groups down tall rectangles, row groups across
// short ones (skewed_kernel.hpp). Empty rectangles are allowed. `above` and `below` are the rows
// above and below the rectangle at first_col: by default the band's own, or (gw-pipelined) a
// node peer's boundary row read in place.
inline void relax_block(Band& band, int first_row, int row_count, int first_col, int col_count,
                        const double* above = nullptr, const double* below = nullptr) {
  if (row_count <= 0 || col_count <= 0) return;
  double* base = band.row(0);
  if (above == nullptr) above = band.row(first_row - 1) + first_col;
  if (below == nullptr) below = band.row(first_row + row_count) + first_col;
  if (row_count >= skewed::column_groups_from_rows) {
    skewed::relax_by_column_groups(base, band.stride(), first_row, row_count, first_col, col_count, above, below);
  } else {
    skewed::relax_by_row_groups(base, band.stride(), first_row, row_count, first_col, col_count, above, below);
  }
}

inline void relax_tile(Band& band, const Decomposition& d, int tile_row, int tile_col) {
  relax_block(band, d.tile_first_row(tile_row), d.bx, d.tile_first_col(tile_col), d.by);
}

// Rows [first, first + count) of a tile (for variants that act between rows of a tile).
inline void relax_tile_rows(Band& band, const Decomposition& d, int tile_row, int tile_col, int first, int count) {
  relax_block(band, d.tile_first_row(tile_row) + first, count, d.tile_first_col(tile_col), d.by);
}

// Tile rows [first_tile_row, end_tile_row) across the whole band: one rectangle, for stretches
// of tiles with no communication between them.
inline void relax_tile_rows_across(Band& band, const Decomposition& d, int first_tile_row, int end_tile_row) {
  relax_block(band, d.tile_first_row(first_tile_row), (end_tile_row - first_tile_row) * d.bx, 1, d.cols);
}

// Column block j from band row `first` (1 = the first owned row) to band row `last` inclusive;
// `above` / `below`: the rows around it at the block's first column, if not the band's.
inline void relax_column_block_rows(Band& band, const Decomposition& d, int tile_col, int first, int last,
                                    const double* above = nullptr, const double* below = nullptr) {
  relax_block(band, first, last - first + 1, d.tile_first_col(tile_col), d.by, above, below);
}

}  // namespace heat
