// SPDX-License-Identifier: BSD-3-Clause
// HeapVariables: the variables of the mpi and commfree variants, each a zeroed array of
// (nx+2)(ny+2)(nz+2) doubles, x fastest: the reference's GRID(0:NX+1, 0:NY+1, 0:NZ+1, v). Laid out
// like the gw variant's ghostwire grids, so every variant runs the stencil on the same layout: rows
// padded to whole cache lines and cell (1, j, k) on a line start, short rows excepted (a row the
// rounding would lengthen by more than an eighth stays nx + 2 long, as the grids' do).
//
// See docs/minighost.md, "Code: what is shared, what a variant supplies".
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <vector>

#include "field_view.hpp"

namespace minighost {

class HeapVariables {
 public:
  HeapVariables(const std::array<int, 3>& block, int num_vars);
  FieldView view(int variable) const;
  int count() const { return static_cast<int>(storage_.size()); }

 private:
  struct AlignedFree {
    void operator()(double* p) const;
  };
  std::array<int, 3> block_;
  std::ptrdiff_t stride_y_, stride_z_, lead_;
  std::vector<std::unique_ptr<double[], AlignedFree>> storage_;
};

}  // namespace minighost
