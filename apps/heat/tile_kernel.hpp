// The Gauss-Seidel update, shared by every variant so that they differ only in communication.
#pragma once

#include "band.hpp"
#include "decomposition.hpp"

namespace heat {

// Updates rows [first_row, first_row + row_count) x columns [first_col, first_col + col_count) of
// the band in place, row by row, left to right:
//   u[x][y] = 0.25 * (u[x-1][y] + u[x+1][y] + u[x][y-1] + u[x][y+1])
// summed in exactly this order (the original's), so any traversal that updates a point after its
// upper and left neighbours and before its lower and right ones gives the bits of the
// lexicographic sweep. The left neighbour is carried in a register: it is the value just written.
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

inline void relax_tile(Band& band, const Decomposition& d, int tile_row, int tile_col) {
  relax_rows(band, d.tile_first_row(tile_row), d.bx, d.tile_first_col(tile_col), d.by);
}

// Rows [first, first + count) of a tile (for variants that act between rows of a tile).
inline void relax_tile_rows(Band& band, const Decomposition& d, int tile_row, int tile_col,
                            int first, int count) {
  relax_rows(band, d.tile_first_row(tile_row) + first, count, d.tile_first_col(tile_col), d.by);
}

}  // namespace heat

namespace heat {

// One sweep over all tiles of the band in row-major tile order, halos as they are.
inline void sweep_tiles_row_major(Band& band, const Decomposition& d) {
  for (int tile_row = 0; tile_row < d.tile_rows; ++tile_row) {
    for (int tile_col = 0; tile_col < d.tile_cols; ++tile_col) relax_tile(band, d, tile_row, tile_col);
  }
}

}  // namespace heat
