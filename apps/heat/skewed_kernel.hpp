// SPDX-License-Identifier: BSD-3-Clause
// The fast Gauss-Seidel kernel: several rows (or columns) of a rectangle in flight at once, skewed
// by one point each, so that the processor overlaps several independent chains of arithmetic.
//
// Why: in the plain row-by-row loop every point needs the value just computed to its left, so a
// row is one chain of dependent adds and a multiply (about 9 cycles per point on current x86),
// whatever the memory does. Row x may however update column y as soon as row x-1 has updated
// column y, so G rows can run together, each one column behind the row above: the G chains are
// independent and the kernel runs at the throughput of the adders instead of their latency
// (measured in docs/heat.md, "The kernel").
//
// Bit-identical: every point is computed by exactly the same expression as the plain kernel,
//   u[x][y] = 0.25 * (((u[x-1][y] + u[x+1][y]) + u[x][y-1]) + u[x][y+1]),
// and it is computed after its upper and left neighbours and before its lower and right ones. The
// new values of the upper and left neighbours are taken from registers (they were computed one
// step earlier); everything else is read from memory, where it still holds the old value.
//
// The row above a rectangle (`top`) and the row below it (`bottom`, at the rectangle's first
// column) are passed as pointers: they may live elsewhere than in the band, e.g. in a node peer's
// band, read in place instead of copied into the halo rows (gw-pipelined).
#pragma once

#include <cstddef>

namespace heat::skewed {

// W adjacent columns [first_col, first_col + W) descend rows [first_row, first_row + rows)
// together: in step s, column j of the group updates row first_row + s - j. Each column carries
// its own last value, which is the "above" of its next point and the "left" of column j+1's next
// point. The row above (`top[0..W)`), the row below (`bottom[0..W)`) and the column left of
// first_col are read from memory (final, or old values).
template <int W>
inline void relax_column_group(double* base, std::ptrdiff_t stride, int first_row, int rows, int first_col,
                               const double* top, const double* bottom) {
  double last[W] = {};        // the value column j computed in the previous step
  std::ptrdiff_t offset[W];   // where column j works in this step (an index, not a pointer: before
                              // it starts, column j's position lies above the band)
  for (int j = 0; j < W; ++j) offset[j] = (first_row - j) * stride + first_col + j;
  const double* below = base + stride;  // below[k] is the point under base[k]
  std::ptrdiff_t left = first_row * stride + first_col - 1;  // left of column 0, this step
  auto update = [&](int j, bool first, bool last_row) {
    const double above = first ? top[j] : last[j];
    const double south = last_row ? bottom[j] : below[offset[j]];
    const double west = j == 0 ? base[left] : last[j - 1];
    const double value = 0.25 * (above + south + west + base[offset[j] + 1]);
    base[offset[j]] = value;
    last[j] = value;
  };
  auto next_step = [&] {
#pragma GCC unroll 8
    for (int j = 0; j < W; ++j) offset[j] += stride;
    left += stride;
  };
  // Column j works in steps j .. j + rows - 1. Descending j: column j reads last[j-1] before
  // column j-1 overwrites it in the same step.
  const int steps = rows + W - 1;
  int s = 0;
  for (; s < W && s < steps; ++s) {  // filling: columns start one by one, at row 0
#pragma GCC unroll 8
    for (int j = W - 1; j >= 0; --j) {
      if (s - j >= 0 && s - j < rows) update(j, s == j, s - j == rows - 1);
    }
    next_step();
  }
  for (; s < rows - 1; ++s) {  // all columns busy, none on the first or the last row
#pragma GCC unroll 8
    for (int j = W - 1; j >= 0; --j) update(j, false, false);
    next_step();
  }
  for (; s < steps; ++s) {  // draining: columns reach the last row one by one
#pragma GCC unroll 8
    for (int j = W - 1; j >= 0; --j) {
      if (s - j >= 0 && s - j < rows) update(j, s == j, s - j == rows - 1);
    }
    next_step();
  }
}

// G adjacent rows [first_row, first_row + G) move right across columns [first_col,
// first_col + cols) together: in step s, row i of the group updates column first_col + s - i.
// Each row carries its last value: the "left" of its next point and the "above" of row i+1's.
// `top` is the row above row 0 at first_col; `bottom`, the row below row G-1 at first_col.
template <int G>
inline void relax_row_group(double* base, std::ptrdiff_t stride, int first_row, int first_col, int cols,
                            const double* top, const double* bottom) {
  double last[G];    // the value row i computed in the previous step (at first: its left boundary)
  double* point[G];  // where row i works in this step
  for (int i = 0; i < G; ++i) {
    point[i] = base + (first_row + i) * stride + first_col - i;
    last[i] = base[(first_row + i) * stride + first_col - 1];
  }
  std::ptrdiff_t column = 0;  // of row 0 in this step, from first_col; row i is at column - i
  auto update = [&](int i) {
    const double above = i == 0 ? top[column] : last[i - 1];
    const double south = i == G - 1 ? bottom[column - i] : point[i][stride];
    const double value = 0.25 * (above + south + last[i] + point[i][1]);
    point[i][0] = value;
    last[i] = value;
  };
  auto next_step = [&] {
#pragma GCC unroll 8
    for (int i = 0; i < G; ++i) ++point[i];
    ++column;
  };
  // Row i works in steps i .. i + cols - 1. Descending i: row i reads last[i-1] before row i-1
  // overwrites it in the same step.
  const int steps = cols + G - 1;
  int s = 0;
  for (; s < G - 1 && s < steps; ++s) {
#pragma GCC unroll 8
    for (int i = G - 1; i >= 0; --i) {
      if (s - i >= 0 && s - i < cols) update(i);
    }
    next_step();
  }
  for (; s < cols; ++s) {
#pragma GCC unroll 8
    for (int i = G - 1; i >= 0; --i) update(i);
    next_step();
  }
  for (; s < steps; ++s) {
#pragma GCC unroll 8
    for (int i = G - 1; i >= 0; --i) {
      if (s - i >= 0 && s - i < cols) update(i);
    }
    next_step();
  }
}

// Column groups of 8 (and one narrower group for the rest) down a tall rectangle. `top` and
// `bottom`: the rows above and below the rectangle, at first_col.
inline void relax_by_column_groups(double* base, std::ptrdiff_t stride, int first_row, int rows, int first_col,
                                   int cols, const double* top, const double* bottom) {
  constexpr int width = 8;  // 8 chains saturate the adders; more would spill registers
  const int end = first_col + cols;
  int col = first_col;
  for (; col + width <= end; col += width) {
    relax_column_group<width>(base, stride, first_row, rows, col, top + (col - first_col), bottom + (col - first_col));
  }
  const double* group_top = top + (col - first_col);
  const double* group_bottom = bottom + (col - first_col);
  switch (end - col) {
    case 0: return;
    case 1: return relax_column_group<1>(base, stride, first_row, rows, col, group_top, group_bottom);
    case 2: return relax_column_group<2>(base, stride, first_row, rows, col, group_top, group_bottom);
    case 3: return relax_column_group<3>(base, stride, first_row, rows, col, group_top, group_bottom);
    case 4: return relax_column_group<4>(base, stride, first_row, rows, col, group_top, group_bottom);
    case 5: return relax_column_group<5>(base, stride, first_row, rows, col, group_top, group_bottom);
    case 6: return relax_column_group<6>(base, stride, first_row, rows, col, group_top, group_bottom);
    default: return relax_column_group<7>(base, stride, first_row, rows, col, group_top, group_bottom);
  }
}

// Row groups of 4 (and one smaller group for the rest) across a wide, short rectangle. `top` and
// `bottom`: the rows above and below the rectangle, at first_col; inside the rectangle every
// group's neighbour rows are the band's.
inline void relax_by_row_groups(double* base, std::ptrdiff_t stride, int first_row, int rows, int first_col,
                                int cols, const double* top, const double* bottom) {
  constexpr int height = 4;  // measured best for rows; 8 spills registers
  const int end = first_row + rows;
  auto row_at = [&](int row) -> const double* { return base + row * stride + first_col; };
  int row = first_row;
  for (; row + height <= end; row += height) {
    relax_row_group<height>(base, stride, row, first_col, cols, row == first_row ? top : row_at(row - 1),
                            row + height == end ? bottom : row_at(row + height));
  }
  const double* group_top = row == first_row ? top : row_at(row - 1);
  switch (end - row) {
    case 0: return;
    case 1: return relax_row_group<1>(base, stride, row, first_col, cols, group_top, bottom);
    case 2: return relax_row_group<2>(base, stride, row, first_col, cols, group_top, bottom);
    default: return relax_row_group<3>(base, stride, row, first_col, cols, group_top, bottom);
  }
}

// A group of W columns fills and drains over W-1 steps, so it needs many rows to pay off; below
// this many rows the row groups are faster (measured on tiles from 8x8 to 128x128).
inline constexpr int column_groups_from_rows = 64;

}  // namespace heat::skewed
