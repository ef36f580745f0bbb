#include "heap_variables.hpp"

#include <algorithm>
#include <new>

namespace minighost {

namespace {
constexpr std::align_val_t alignment{64};
constexpr std::ptrdiff_t per_line = 64 / sizeof(double);
// Cell (0, 0, 0) this many elements after the allocation's start puts cell (1, 1, 1), and with
// line-multiple strides every cell (1, j, k), on a line start.
constexpr std::ptrdiff_t lead = per_line - 1;
}  // namespace

void HeapVariables::AlignedFree::operator()(double* p) const { ::operator delete[](p, alignment); }

HeapVariables::HeapVariables(const std::array<int, 3>& block, int num_vars)
    : block_(block),
      stride_y_((block[0] + 2 + per_line - 1) / per_line * per_line),
      stride_z_(stride_y_ * (block[1] + 2)) {
  const std::size_t cells = static_cast<std::size_t>(lead + stride_z_ * (block[2] + 2));
  for (int v = 0; v < num_vars; ++v) {
    auto* data = static_cast<double*>(::operator new[](cells * sizeof(double), alignment));
    std::fill(data, data + cells, 0.0);
    storage_.emplace_back(data);
  }
}

FieldView HeapVariables::view(int variable) const {
  FieldView f;
  f.data = storage_[static_cast<std::size_t>(variable)].get() + lead;
  f.nx = block_[0];
  f.ny = block_[1];
  f.nz = block_[2];
  f.stride_y = stride_y_;
  f.stride_z = stride_z_;
  return f;
}

}  // namespace minighost
