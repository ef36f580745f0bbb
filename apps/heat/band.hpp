// SPDX-License-Identifier: BSD-3-Clause
// Band: one rank's rows of the field, with the halo rows around them, in row-major order.
//
//   local row 0               halo above: the upper rank's last row, or the top boundary (row 0)
//   local rows 1..band_rows   owned: global rows first_row .. first_row + band_rows - 1
//   local row band_rows + 1   halo below: the lower rank's first row, or the bottom boundary
//
// Every row has C + 2 columns; columns 0 and C + 1 are the fixed left/right boundary. Rows are
// padded: the stride is C + 2 rounded up to whole cache lines, and column 1 of every row starts a
// cache line. A column block of 8 doubles (the message of a wavefront step, and the width of the
// kernel's column groups) is then exactly one cache line: the kernel loads whole lines (how much
// faster that is: docs/heat.md, "The algorithm") and a halo message moves one line instead of two.
// The padding is never read or written.
//
// The part of a boundary row under one column block is BY contiguous doubles: every variant sends
// and receives it in place, without packing.
//
// See docs/heat.md, "The algorithm".
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>

namespace heat {

class Band {
 public:
  static constexpr std::ptrdiff_t line = 8;  // doubles per 64-byte cache line

  // Doubles from one row to the next: C + 2 rounded up to whole lines, plus one line when rows
  // would be a multiple of 4 KiB apart (then loads of one row would alias with stores to the
  // row above in the processor's store-to-load forwarding).
  static std::ptrdiff_t stride_for(int cols) {
    std::ptrdiff_t stride = (static_cast<std::ptrdiff_t>(cols) + 2 + line - 1) / line * line;
    if (stride * static_cast<std::ptrdiff_t>(sizeof(double)) % 4096 == 0) stride += line;
    return stride;
  }
  // Storage a band needs, including up to one line to align column 1.
  static std::size_t element_count(int band_rows, int cols) {
    return static_cast<std::size_t>(band_rows + 2) * static_cast<std::size_t>(stride_for(cols)) + line;
  }

  // `storage` (at least element_count(band_rows, cols) doubles, 8-byte aligned) is owned by the
  // caller. The same storage address always gives the same layout.
  Band(std::span<double> storage, int band_rows, int cols)
      : first_(first_element(storage.data())),
        data_(storage.data() + first_),
        band_rows_(band_rows),
        cols_(cols),
        stride_(stride_for(cols)) {
    if (storage.size() < element_count(band_rows, cols)) throw std::logic_error("Band: storage too small");
  }

  int band_rows() const { return band_rows_; }
  int cols() const { return cols_; }
  std::ptrdiff_t stride() const { return stride_; }  // doubles from one row to the next

  double* row(int local_row) { return data_ + local_row * stride_; }
  const double* row(int local_row) const { return data_ + local_row * stride_; }
  double& at(int local_row, int col) { return row(local_row)[col]; }
  double at(int local_row, int col) const { return row(local_row)[col]; }
  // Where (local_row, col) is, counted in doubles from the start of the storage.
  std::size_t index_of(int local_row, int col) const {
    return first_ + static_cast<std::size_t>(local_row) * static_cast<std::size_t>(stride_) +
           static_cast<std::size_t>(col);
  }

  double* upper_halo() { return row(0); }
  double* lower_halo() { return row(band_rows_ + 1); }
  double* first_owned() { return row(1); }
  double* last_owned() { return row(band_rows_); }

 private:
  // The first element of row 0: column 1 (the element after it) starts a cache line.
  static std::size_t first_element(const double* storage) {
    const auto column_one = reinterpret_cast<std::uintptr_t>(storage + 1) / sizeof(double);
    return static_cast<std::size_t>((line - static_cast<std::ptrdiff_t>(column_one % line)) % line);
  }

  std::size_t first_;
  double* data_;
  int band_rows_;
  int cols_;
  std::ptrdiff_t stride_;
};

}  // namespace heat
