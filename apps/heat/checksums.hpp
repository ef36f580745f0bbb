// SPDX-License-Identifier: BSD-3-Clause
// Checksums of the final field, printed as "checksum NAME VALUE" (%.17g) so that runs can be
// compared bit for bit across variants, rank counts and machines.
// See docs/heat.md, "Output".
#pragma once

#include <cstdio>
#include <span>
#include <string_view>
#include <vector>

namespace heat {

struct Checksum {
  std::string_view name;
  double value;
};

// `field` is the whole (rows+2) x (cols+2) field, row-major. Sums run in row-major order over the
// gathered field, so they do not depend on how many ranks computed it:
//   sum_all           all (R+2)(C+2) points          sum_interior, sumsq_interior, max_interior
//   posthoc_residual  sum over the interior of (0.25 (N+S+W+E) - u)^2
//   u_1_1 = u[1][1], u_mid = u[(R+2)/2][(C+2)/2], u_1_mid = u[1][(C+2)/2], u_last = u[R][C]
std::vector<Checksum> field_checksums(std::span<const double> field, int rows, int cols);

void print_checksums(std::FILE* out, const std::vector<Checksum>& checksums);

}  // namespace heat
