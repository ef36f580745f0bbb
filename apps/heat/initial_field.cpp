// SPDX-License-Identifier: BSD-3-Clause
// initialise_band: zero inside, and each heat source's share on the boundary points this band
// holds, computed in the original's types (see docs/heat.md, "The algorithm").
#include "initial_field.hpp"

#include <algorithm>
#include <cmath>

namespace heat {
namespace {

// A source adds (range - distance) / range * temperature to every boundary point within range.
// The expressions mirror the original's types: the source's fields are floats widened to double,
// and "1 - fraction" is a float subtraction there, so it is one here too.
void add_heat(double& value, double distance, const HeatSource& source) {
  const double range = source.range;
  if (distance <= range) value += (range - distance) / range * static_cast<double>(source.temperature);
}

double square(double value) { return value * value; }

}  // namespace

void initialise_band(Band& band, const Decomposition& d, const std::vector<HeatSource>& sources) {
  const int total_rows = d.rows + 2;  // with the boundary
  const int total_cols = d.cols + 2;
  const int last_global_row = d.rows + 1;
  for (int local = 0; local <= band.band_rows() + 1; ++local) {
    std::fill_n(band.row(local), total_cols, 0.0);
  }

  for (const HeatSource& source : sources) {
    const double row = source.row;
    const double col = source.col;
    const double one_minus_row = 1.0f - source.row;
    const double one_minus_col = 1.0f - source.col;
    for (int local = 0; local <= band.band_rows() + 1; ++local) {
      const int x = d.first_row - 1 + local;  // global row
      double* values = band.row(local);
      if (x == 0 || x == last_global_row) {
        // Top and bottom rows, corners included: distance along the row to the source column.
        const double across = (x == 0) ? row : one_minus_row;
        for (int y = 0; y < total_cols; ++y) {
          const double along = static_cast<double>(y) / static_cast<double>(total_cols) - col;
          add_heat(values[y], std::sqrt(square(along) + square(across)), source);
        }
      } else {
        const double down = static_cast<double>(x) / static_cast<double>(total_rows) - row;
        add_heat(values[0], std::sqrt(square(col) + square(down)), source);
        add_heat(values[total_cols - 1], std::sqrt(square(one_minus_col) + square(down)), source);
      }
    }
  }
}

}  // namespace heat
