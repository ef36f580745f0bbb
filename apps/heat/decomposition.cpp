// SPDX-License-Identifier: BSD-3-Clause
// decompose: the bands and tiles of a run, checked so that every rank gets whole tiles; a size that
// does not divide is a UsageError naming the nearest sizes that do (see docs/heat.md,
// "The algorithm").
#include "decomposition.hpp"

#include <string>

#include "usage_error.hpp"

namespace heat {
namespace {

// "nearest valid: 960 or 1008" (only the ones that are positive).
std::string nearest_multiples(long long value, long long divisor) {
  const long long below = value / divisor * divisor;
  const long long above = below + divisor;
  if (below == 0) return "the smallest valid value is " + std::to_string(above);
  return "nearest valid: " + std::to_string(below) + " or " + std::to_string(above);
}

}  // namespace

Decomposition decompose(int rows, int cols, int bx, int by, int ranks, int rank) {
  const long long row_divisor = static_cast<long long>(ranks) * bx;
  if (rows % row_divisor != 0) {
    throw UsageError("the number of rows R=" + std::to_string(rows) +
                     " must be divisible by ranks x BX = " + std::to_string(ranks) + " x " +
                     std::to_string(bx) + " = " + std::to_string(row_divisor) +
                     " (equal bands of whole tiles); " + nearest_multiples(rows, row_divisor) +
                     ", or change the rank count or --bx");
  }
  if (cols % by != 0) {
    throw UsageError("the number of columns C=" + std::to_string(cols) +
                     " must be divisible by BY=" + std::to_string(by) + " (whole tiles); " +
                     nearest_multiples(cols, by) + ", or change --by");
  }
  Decomposition d;
  d.rows = rows;
  d.cols = cols;
  d.ranks = ranks;
  d.rank = rank;
  d.bx = bx;
  d.by = by;
  d.band_rows = rows / ranks;
  d.first_row = 1 + rank * d.band_rows;
  d.tile_rows = d.band_rows / bx;
  d.tile_cols = cols / by;
  return d;
}

}  // namespace heat
