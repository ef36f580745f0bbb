// SPDX-License-Identifier: BSD-3-Clause
// The checksums of the final field (checksums.hpp) and their "checksum NAME VALUE" lines (see
// docs/heat.md, "Output").
#include "checksums.hpp"

#include <algorithm>
#include <limits>

namespace heat {

std::vector<Checksum> field_checksums(std::span<const double> field, int rows, int cols) {
  const std::size_t width = static_cast<std::size_t>(cols) + 2;
  auto u = [&](int x, int y) { return field[static_cast<std::size_t>(x) * width + y]; };

  double sum_all = 0;
  for (const double value : field) sum_all += value;

  double sum_interior = 0, sumsq_interior = 0, residual = 0;
  double max_interior = -std::numeric_limits<double>::infinity();
  for (int x = 1; x <= rows; ++x) {
    for (int y = 1; y <= cols; ++y) {
      const double value = u(x, y);
      sum_interior += value;
      sumsq_interior += value * value;
      max_interior = std::max(max_interior, value);
      const double change = 0.25 * (u(x - 1, y) + u(x + 1, y) + u(x, y - 1) + u(x, y + 1)) - value;
      residual += change * change;
    }
  }
  const int mid_row = (rows + 2) / 2;
  const int mid_col = (cols + 2) / 2;
  return {{"sum_all", sum_all},
          {"sum_interior", sum_interior},
          {"sumsq_interior", sumsq_interior},
          {"max_interior", max_interior},
          {"posthoc_residual", residual},
          {"u_1_1", u(1, 1)},
          {"u_mid", u(mid_row, mid_col)},
          {"u_1_mid", u(1, mid_col)},
          {"u_last", u(rows, cols)}};
}

void print_checksums(std::FILE* out, const std::vector<Checksum>& checksums) {
  for (const Checksum& checksum : checksums) {
    std::fprintf(out, "checksum %.*s %.17g\n", static_cast<int>(checksum.name.size()),
                 checksum.name.data(), checksum.value);
  }
}

}  // namespace heat
