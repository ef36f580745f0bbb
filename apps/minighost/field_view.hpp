// SPDX-License-Identifier: BSD-3-Clause
// FieldView: one variable's block of this rank with its 1-deep ghost layer, as the kernels see it.
//
// Indices follow the reference: 0 and n+1 are ghost cells, 1..n the cells this rank owns. x is
// contiguous; the y and z strides are whatever the storage has, so a variant may keep its variables
// in any padded layout (a ghostwire Grid, a plain array) without the kernels knowing.
//
// See docs/minighost.md, "Code: what is shared, what a variant supplies".
#pragma once

#include <cstddef>

namespace minighost {

struct FieldView {
  double* data = nullptr;  // cell (0, 0, 0), the lowest ghost corner
  int nx = 0, ny = 0, nz = 0;
  std::ptrdiff_t stride_y = 0;  // elements between (i, j, k) and (i, j+1, k)
  std::ptrdiff_t stride_z = 0;  // elements between (i, j, k) and (i, j, k+1)

  double& operator()(int i, int j, int k) const { return data[i + j * stride_y + k * stride_z]; }
  double* row(int j, int k) const { return data + j * stride_y + k * stride_z; }  // cell (0, j, k)
};

}  // namespace minighost
