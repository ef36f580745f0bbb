// SPDX-License-Identifier: BSD-3-Clause
// The fast kernel (relax_block, used by every variant but seq) must give exactly the bits of the
// plain kernel (relax_rows, seq's):
//  1. on random rectangles of random bands, both schedules (column groups, row groups) and every
//     width and height remainder, starting from random values;
//  2. the same with the rows above and below the rectangle read from elsewhere (as gw-pipelined
//     reads a node peer's boundary row in place), the band's own rows there poisoned;
//  3. over whole sweeps, in each traversal the variants use (row-major tiles, column blocks top to
//     bottom, tile rows across, the first/middle/last row split of the MPI variants), against
//     seq's row-major tiles with the plain kernel.
// Prints the first difference and exits 1.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "band.hpp"
#include "decomposition.hpp"
#include "tile_kernel.hpp"

namespace {

// A band's storage, 64-byte aligned so that copies have the same layout (band.hpp aligns column 1
// relative to the address).
struct Field {
  int rows, cols;
  std::vector<double> memory;

  Field(int band_rows, int band_cols)
      : rows(band_rows), cols(band_cols), memory(heat::Band::element_count(band_rows, band_cols) + 8) {}
  Field(const Field& other) : Field(other.rows, other.cols) {
    std::memcpy(storage().data(), const_cast<Field&>(other).storage().data(), storage().size_bytes());
  }
  std::span<double> storage() {
    std::size_t skip = 0;
    while (reinterpret_cast<std::uintptr_t>(memory.data() + skip) % 64 != 0) ++skip;
    return std::span<double>(memory).subspan(skip, heat::Band::element_count(rows, cols));
  }
  heat::Band band() { return heat::Band(storage(), rows, cols); }
};

Field random_field(std::mt19937_64& random, int rows, int cols) {
  Field field(rows, cols);
  std::uniform_real_distribution<double> value(-1.0, 3.0);
  for (double& v : field.storage()) v = value(random);
  return field;
}

// Both fields hold the same random storage (padding and alignment slack included), so any write
// outside the rectangle or into the padding shows as well.
bool same(Field& a, Field& b, const std::string& what) {
  const std::span<double> x = a.storage(), y = b.storage();
  if (std::memcmp(x.data(), y.data(), x.size_bytes()) == 0) return true;
  const heat::Band band = a.band();
  for (int row = 0; row <= a.rows + 1; ++row) {
    for (int col = 0; col <= a.cols + 1; ++col) {
      const std::size_t i = band.index_of(row, col);
      if (std::memcmp(&x[i], &y[i], sizeof(double)) != 0) {
        std::printf("FAIL %s: band row %d, column %d: %.17g, expected %.17g\n", what.c_str(), row, col, y[i], x[i]);
        return false;
      }
    }
  }
  std::printf("FAIL %s: the padding or the alignment slack was written\n", what.c_str());
  return false;
}

// A rectangle of a rows x cols band's interior (1-based, as the kernels count).
struct Rectangle {
  int first_row, row_count, first_col, col_count;
  std::string describe() const {
    return "rectangle rows " + std::to_string(first_row) + "+" + std::to_string(row_count) + " columns " +
           std::to_string(first_col) + "+" + std::to_string(col_count);
  }
};

Rectangle random_rectangle(std::mt19937_64& random, int rows, int cols) {
  Rectangle r{};
  r.first_row = 1 + static_cast<int>(random() % static_cast<unsigned>(rows));
  r.row_count = 1 + static_cast<int>(random() % static_cast<unsigned>(rows - r.first_row + 1));
  r.first_col = 1 + static_cast<int>(random() % static_cast<unsigned>(cols));
  r.col_count = 1 + static_cast<int>(random() % static_cast<unsigned>(cols - r.first_col + 1));
  return r;
}

bool random_rectangles() {
  std::mt19937_64 random(20240611);
  for (int trial = 0; trial < 4000; ++trial) {
    const int rows = 1 + static_cast<int>(random() % 140), cols = 1 + static_cast<int>(random() % 40);
    Field plain = random_field(random, rows, cols);
    Field fast = plain;
    const Rectangle r = random_rectangle(random, rows, cols);
    heat::Band a = plain.band(), b = fast.band();
    heat::relax_rows(a, r.first_row, r.row_count, r.first_col, r.col_count);
    heat::relax_block(b, r.first_row, r.row_count, r.first_col, r.col_count);
    if (!same(plain, fast, r.describe() + " of a " + std::to_string(rows) + " x " + std::to_string(cols) + " band")) {
      return false;
    }
  }
  std::printf("heat_kernel_test: 4000 random rectangles bit-identical\n");
  return true;
}

// The rows above and below a rectangle given as pointers elsewhere (a node peer's row, read in
// place): the band's own rows there are poisoned, so reading them instead shows as a difference,
// and writing them shows when they are restored and compared.
bool rows_around_from_elsewhere() {
  std::mt19937_64 random(20261123);
  for (int trial = 0; trial < 2000; ++trial) {
    const int rows = 1 + static_cast<int>(random() % 140), cols = 1 + static_cast<int>(random() % 40);
    Field plain = random_field(random, rows, cols);
    Field fast = plain;
    const Rectangle r = random_rectangle(random, rows, cols);
    heat::Band a = plain.band(), b = fast.band();
    double* band_above = b.row(r.first_row - 1) + r.first_col;
    double* band_below = b.row(r.first_row + r.row_count) + r.first_col;
    const std::vector<double> above(band_above, band_above + r.col_count),
        below(band_below, band_below + r.col_count);
    std::fill_n(band_above, r.col_count, std::nan(""));
    std::fill_n(band_below, r.col_count, std::nan(""));
    heat::relax_rows(a, r.first_row, r.row_count, r.first_col, r.col_count);
    heat::relax_block(b, r.first_row, r.row_count, r.first_col, r.col_count, above.data(), below.data());
    std::copy(above.begin(), above.end(), band_above);
    std::copy(below.begin(), below.end(), band_below);
    if (!same(plain, fast, r.describe() + " with the rows around it elsewhere")) {
      return false;
    }
  }
  std::printf("heat_kernel_test: 2000 random rectangles with the rows around them elsewhere bit-identical\n");
  return true;
}

bool traversals() {
  struct Shape {
    int rows, cols, bx, by, sweeps;
  };
  const Shape shapes[] = {{96, 40, 4, 8, 3}, {144, 60, 3, 5, 2}, {128, 64, 16, 16, 2}, {200, 48, 8, 12, 2},
                          {7, 9, 1, 1, 3},   {70, 17, 7, 17, 2}, {256, 32, 64, 32, 2}};
  using Traversal = std::function<void(heat::Band&, const heat::Decomposition&)>;
  const std::pair<const char*, Traversal> orders[] = {
      {"row-major tiles", [](heat::Band& band, const heat::Decomposition& d) {
         for (int i = 0; i < d.tile_rows; ++i)
           for (int j = 0; j < d.tile_cols; ++j) heat::relax_tile(band, d, i, j);
       }},
      {"column blocks", [](heat::Band& band, const heat::Decomposition& d) {
         for (int j = 0; j < d.tile_cols; ++j) heat::relax_column_block_rows(band, d, j, 1, d.band_rows);
       }},
      {"tile rows across", [](heat::Band& band, const heat::Decomposition& d) {
         heat::relax_tile_rows_across(band, d, 0, 1);
         heat::relax_tile_rows_across(band, d, 1, d.tile_rows);
       }},
      {"first, middle, last row per column block", [](heat::Band& band, const heat::Decomposition& d) {
         for (int j = 0; j < d.tile_cols; ++j) {
           heat::relax_column_block_rows(band, d, j, 1, 1);
           heat::relax_column_block_rows(band, d, j, 2, d.band_rows - 1);
           if (d.band_rows > 1) heat::relax_column_block_rows(band, d, j, d.band_rows, d.band_rows);
         }
       }},
  };
  std::mt19937_64 random(7);
  int checked = 0;
  for (const Shape& shape : shapes) {
    const heat::Decomposition d = heat::decompose(shape.rows, shape.cols, shape.bx, shape.by, 1, 0);
    const Field start = random_field(random, shape.rows, shape.cols);
    Field reference = start;
    heat::Band reference_band = reference.band();
    for (int t = 0; t < shape.sweeps; ++t) {
      for (int i = 0; i < d.tile_rows; ++i)
        for (int j = 0; j < d.tile_cols; ++j)
          heat::relax_rows(reference_band, d.tile_first_row(i), d.bx, d.tile_first_col(j), d.by);
    }
    for (const auto& [name, traverse] : orders) {
      Field field = start;
      heat::Band band = field.band();
      for (int t = 0; t < shape.sweeps; ++t) traverse(band, d);
      if (!same(reference, field, std::string(name) + " of " + std::to_string(shape.rows) + " x " +
                                      std::to_string(shape.cols) + ", tiles " + std::to_string(shape.bx) + " x " +
                                      std::to_string(shape.by))) {
        return false;
      }
      ++checked;
    }
  }
  std::printf("heat_kernel_test: %d traversals bit-identical to seq's\n", checked);
  return true;
}

}  // namespace

int main() {
  const bool ok = random_rectangles() && rows_around_from_elsewhere() && traversals();
  return ok ? 0 : 1;
}
