// SPDX-License-Identifier: BSD-3-Clause
// HeapVariables (heap_variables.hpp): the row rounding of ghostwire's grids, so the mpi and
// commfree variants sweep the same layout as gw (see docs/minighost.md,
// "Code: what is shared, what a variant supplies").
#include "heap_variables.hpp"

#include <algorithm>
#include <new>

namespace minighost {

namespace {
constexpr std::align_val_t alignment{64};
constexpr std::ptrdiff_t per_line = 64 / sizeof(double);

// A row of nx cells and its two ghosts as the grids store it (src/dist/grid.cpp): rounded up to
// whole lines unless that lengthens it by more than an eighth.
std::ptrdiff_t row_length(int nx) {
  const std::ptrdiff_t row = nx + 2, rounded = (row + per_line - 1) / per_line * per_line;
  return (rounded - row) * 8 <= rounded ? rounded : row;
}
}  // namespace

void HeapVariables::AlignedFree::operator()(double* p) const { ::operator delete[](p, alignment); }

HeapVariables::HeapVariables(const std::array<int, 3>& block, int num_vars)
    : block_(block),
      stride_y_(row_length(block[0])),
      stride_z_(stride_y_ * (block[1] + 2)),
      // Cell (0, 0, 0) this many elements after the allocation's start puts cell (1, 1, 1), and
      // with line-multiple strides every cell (1, j, k), on a line start; unpadded rows start at 0.
      lead_(stride_y_ % per_line == 0 ? per_line - 1 : 0) {
  const std::size_t cells = static_cast<std::size_t>(lead_ + stride_z_ * (block[2] + 2));
  for (int v = 0; v < num_vars; ++v) {
    auto* data = static_cast<double*>(::operator new[](cells * sizeof(double), alignment));
    std::fill(data, data + cells, 0.0);
    storage_.emplace_back(data);
  }
}

FieldView HeapVariables::view(int variable) const {
  FieldView f;
  f.data = storage_[static_cast<std::size_t>(variable)].get() + lead_;
  f.nx = block_[0];
  f.ny = block_[1];
  f.nz = block_[2];
  f.stride_y = stride_y_;
  f.stride_z = stride_z_;
  return f;
}

}  // namespace minighost
