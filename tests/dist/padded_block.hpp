// SPDX-License-Identifier: BSD-3-Clause
// What the grid tests share: a walk over every cell of a padded local block (ghost cells included).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ghostwire/dist.hpp"

namespace gwtest {

// Calls f(local point), or f(local point, its padded linear index), for every cell of the block
// [-width, extent + width) in row-major order (the last dimension fastest); nothing for an empty block.
template <int N, class F>
void for_each_padded(const ghostwire::Point<N>& extent, const ghostwire::Point<N>& width, F&& f) {
  for (int d = 0; d < N; ++d)
    if (extent[d] == 0) return;
  ghostwire::Point<N> p;
  for (int d = 0; d < N; ++d) p[d] = -width[d];
  for (std::int64_t linear = 0;; ++linear) {
    if constexpr (std::is_invocable_v<F&, const ghostwire::Point<N>&, std::int64_t>)
      f(p, linear);
    else
      f(p);
    int d = N - 1;
    while (d >= 0 && ++p[d] == extent[d] + width[d]) {
      p[d] = -width[d];
      --d;
    }
    if (d < 0) return;
  }
}

}  // namespace gwtest
