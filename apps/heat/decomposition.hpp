// SPDX-License-Identifier: BSD-3-Clause
// How the R x C interior is split: rows into equal contiguous bands, one per rank in rank order,
// and each band into BX x BY tiles. Global rows run 0..R+1 and columns 0..C+1, where row 0, row
// R+1, column 0 and column C+1 are the fixed (heated) boundary.
// See docs/heat.md, "The algorithm".
#pragma once

namespace heat {

struct Decomposition {
  int rows = 0;  // global interior rows R
  int cols = 0;  // global interior columns C
  int ranks = 1;
  int rank = 0;
  int bx = 1;  // rows of a tile
  int by = 1;  // columns of a tile
  int band_rows = 0;  // R / ranks: owned rows of every rank
  int first_row = 1;  // global row of my first owned row
  int tile_rows = 0;  // band_rows / bx: tile rows of a band
  int tile_cols = 0;  // C / by: column blocks, the same on every rank

  // The band of the rank above holds the rows above mine (rank 0 has the top boundary instead).
  bool has_upper() const { return rank > 0; }
  bool has_lower() const { return rank < ranks - 1; }
  int upper() const { return rank - 1; }
  int lower() const { return rank + 1; }

  // Where tile (tile_row, tile_col) starts, in band-local rows (owned rows are 1..band_rows) and
  // columns (interior columns are 1..C).
  int tile_first_row(int tile_row) const { return 1 + tile_row * bx; }
  int tile_first_col(int tile_col) const { return 1 + tile_col * by; }
};

// Throws UsageError when R is not divisible by ranks x BX or C by BY, naming the nearest sizes
// that are. Padding the grid instead (as the original does) would silently run another problem.
Decomposition decompose(int rows, int cols, int bx, int by, int ranks, int rank);

}  // namespace heat
