// SPDX-License-Identifier: BSD-3-Clause
// Sums of many doubles that do not wait on one add after the other.
//
// Summing one cell after the other makes every add wait for the one before (4 cycles each), which
// made the conservation check (a sum over every owned cell of every variable, each step) and the
// boundary outflow together as costly as the stencil at small blocks (rows of ten cells). The
// helpers here keep independent partial sums instead. Their results are deterministic (fixed partial sums, fixed
// combining order) but not rounded like the reference's one-by-one sum; the difference is a few
// ulps, far inside the tolerances the results are checked with (1e-11 against the reference,
// 1e-12 across decompositions, which sum in different orders anyway).
//
// See docs/minighost.md, "Verification".
#pragma once

#include <cstddef>

namespace minighost {

// Sum of a contiguous array in sixteen interleaved partial sums (element i goes to i % 16): vector
// adds with eight chains in flight, so the sum runs at load speed.
inline double dense_sum(const double* values, std::size_t n) {
  constexpr std::size_t lanes = 16;
  double lane[lanes] = {};
  std::size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    for (std::size_t l = 0; l < lanes; ++l) lane[l] += values[i + l];
  }
  double rest = 0.0;
  for (; i < n; ++i) rest += values[i];
  double total = rest;
  for (std::size_t l = 0; l < lanes; l += 2) total += lane[l] + lane[l + 1];
  return total;
}

// Sum of base[offsets[e]] * weights[e] over e in [0, n), in eight interleaved partial sums.
inline double gathered_weighted_sum(const double* base, const std::ptrdiff_t* offsets, const double* weights,
                                    std::size_t n) {
  constexpr std::size_t lanes = 8;
  double lane[lanes] = {};
  std::size_t e = 0;
  for (; e + lanes <= n; e += lanes) {
    for (std::size_t l = 0; l < lanes; ++l) lane[l] += base[offsets[e + l]] * weights[e + l];
  }
  double total = 0.0;
  for (; e < n; ++e) total += base[offsets[e]] * weights[e];
  for (std::size_t l = 0; l < lanes; l += 2) total += lane[l] + lane[l + 1];
  return total;
}

}  // namespace minighost
