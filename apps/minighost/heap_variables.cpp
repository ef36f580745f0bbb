#include "heap_variables.hpp"

#include <algorithm>
#include <new>

namespace minighost {

namespace {
constexpr std::align_val_t alignment{64};  // a cache line: rows start aligned for vector loads
}

void HeapVariables::AlignedFree::operator()(double* p) const { ::operator delete[](p, alignment); }

HeapVariables::HeapVariables(const std::array<int, 3>& block, int num_vars) : block_(block) {
  const std::size_t cells = static_cast<std::size_t>(block[0] + 2) * static_cast<std::size_t>(block[1] + 2) *
                            static_cast<std::size_t>(block[2] + 2);
  for (int v = 0; v < num_vars; ++v) {
    auto* data = static_cast<double*>(::operator new[](cells * sizeof(double), alignment));
    std::fill(data, data + cells, 0.0);
    storage_.emplace_back(data);
  }
}

FieldView HeapVariables::view(int variable) const {
  FieldView f;
  f.data = storage_[static_cast<std::size_t>(variable)].get();
  f.nx = block_[0];
  f.ny = block_[1];
  f.nz = block_[2];
  f.stride_y = block_[0] + 2;
  f.stride_z = static_cast<std::ptrdiff_t>(block_[0] + 2) * (block_[1] + 2);
  return f;
}

}  // namespace minighost
