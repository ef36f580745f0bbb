#include "stencil.hpp"

#include <algorithm>
#include <cstddef>

#include "lane_sum.hpp"

namespace minighost {
namespace {

// Each kernel updates one row (fixed j, k) from pointers to the rows it reads; `out[i]` is cell i of
// the row (1-based like the field). __restrict lets the compiler vectorise over i: the work array
// never overlaps the field.

void row_2d5pt(double* __restrict out, const double* south, const double* centre, const double* north, int nx) {
  for (int i = 1; i <= nx; ++i) {
    out[i] = (centre[i - 1] + south[i] + centre[i] + north[i] + centre[i + 1]) / 5.0;
  }
}

void row_2d9pt(double* __restrict out, const double* south, const double* centre, const double* north, int nx) {
  for (int i = 1; i <= nx; ++i) {
    out[i] = (south[i - 1] + centre[i - 1] + north[i - 1] + south[i] + centre[i] + north[i] + south[i + 1] +
              centre[i + 1] + north[i + 1]) /
             9.0;
  }
}

void row_3d7pt(double* __restrict out, const double* back, const double* south, const double* centre,
               const double* north, const double* front, int nx) {
  for (int i = 1; i <= nx; ++i) {
    out[i] = (back[i] + centre[i - 1] + south[i] + centre[i] + north[i] + centre[i + 1] + front[i]) / 7.0;
  }
}

// The 3x3 square of plane rows (south, centre, north) around cell i, summed in the reference's order.
inline double square(const double* south, const double* centre, const double* north, int i) {
  return south[i - 1] + centre[i - 1] + north[i - 1] + south[i] + centre[i] + north[i] + south[i + 1] +
         centre[i + 1] + north[i + 1];
}

void row_3d27pt(double* __restrict out, const FieldView& f, int j, int k) {
  const double *bs = f.row(j - 1, k - 1), *bc = f.row(j, k - 1), *bn = f.row(j + 1, k - 1);
  const double *ms = f.row(j - 1, k), *mc = f.row(j, k), *mn = f.row(j + 1, k);
  const double *fs = f.row(j - 1, k + 1), *fc = f.row(j, k + 1), *fn = f.row(j + 1, k + 1);
  for (int i = 1; i <= f.nx; ++i) {
    out[i] = (square(bs, bc, bn, i) + square(ms, mc, mn, i) + square(fs, fc, fn, i)) / 27.0;
  }
}

}  // namespace

double apply_stencil(Stencil stencil, const FieldView& f, double* work) {
  const std::ptrdiff_t nx = f.nx;
  for (int k = 1; k <= f.nz; ++k) {
    for (int j = 1; j <= f.ny; ++j) {
      // Minus one so that out[1..nx] is the row's slice of the dense work array.
      double* out = work + ((static_cast<std::ptrdiff_t>(k) - 1) * f.ny + (j - 1)) * nx - 1;
      switch (stencil) {
        case Stencil::five_point_2d:
          row_2d5pt(out, f.row(j - 1, k), f.row(j, k), f.row(j + 1, k), f.nx);
          break;
        case Stencil::nine_point_2d:
          row_2d9pt(out, f.row(j - 1, k), f.row(j, k), f.row(j + 1, k), f.nx);
          break;
        case Stencil::seven_point_3d:
          row_3d7pt(out, f.row(j, k - 1), f.row(j - 1, k), f.row(j, k), f.row(j + 1, k), f.row(j, k + 1), f.nx);
          break;
        case Stencil::twenty_seven_point_3d:
          row_3d27pt(out, f, j, k);
          break;
      }
    }
  }
  // Copy back only after every row is computed: the update is Jacobi, all reads see old values.
  for (int k = 1; k <= f.nz; ++k) {
    for (int j = 1; j <= f.ny; ++j) {
      const double* in = work + ((static_cast<std::ptrdiff_t>(k) - 1) * f.ny + (j - 1)) * nx;
      std::copy(in, in + nx, f.row(j, k) + 1);
    }
  }
  // The work array holds exactly the updated owned cells, densely: one long sum, no row ends.
  return dense_sum(work, static_cast<std::size_t>(nx) * static_cast<std::size_t>(f.ny) * static_cast<std::size_t>(f.nz));
}

}  // namespace minighost
