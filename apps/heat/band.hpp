// Band: one rank's rows of the field, with the halo rows around them, in row-major order.
//
//   local row 0               halo above: the upper rank's last row, or the top boundary (row 0)
//   local rows 1..band_rows   owned: global rows first_row .. first_row + band_rows - 1
//   local row band_rows + 1   halo below: the lower rank's first row, or the bottom boundary
//
// Every row has C + 2 columns; columns 0 and C + 1 are the fixed left/right boundary. Rows are
// contiguous, so the part of a boundary row under one column block (the message of a wavefront
// step) is BY contiguous doubles: every variant sends and receives it in place, without packing.
#pragma once

#include <cstddef>
#include <span>

namespace heat {

class Band {
 public:
  static std::size_t element_count(int band_rows, int cols) {
    return static_cast<std::size_t>(band_rows + 2) * static_cast<std::size_t>(cols + 2);
  }

  // `storage` (at least element_count(band_rows, cols) doubles) is owned by the caller.
  Band(std::span<double> storage, int band_rows, int cols)
      : data_(storage.data()), band_rows_(band_rows), cols_(cols), stride_(cols + 2) {}

  int band_rows() const { return band_rows_; }
  int cols() const { return cols_; }
  std::ptrdiff_t stride() const { return stride_; }  // doubles from one row to the next

  double* row(int local_row) { return data_ + local_row * stride_; }
  const double* row(int local_row) const { return data_ + local_row * stride_; }
  double& at(int local_row, int col) { return row(local_row)[col]; }
  double at(int local_row, int col) const { return row(local_row)[col]; }

  double* upper_halo() { return row(0); }
  double* lower_halo() { return row(band_rows_ + 1); }
  double* first_owned() { return row(1); }
  double* last_owned() { return row(band_rows_); }

 private:
  double* data_;
  int band_rows_;
  int cols_;
  std::ptrdiff_t stride_;
};

}  // namespace heat
