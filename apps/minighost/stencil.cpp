// SPDX-License-Identifier: BSD-3-Clause
// apply_stencil (stencil.hpp): the four stencils in the reference's order of additions, row by row
// or, for short rows, plane by plane as one flat run (see docs/minighost.md, "Semantics",
// Stencils).
#include "stencil.hpp"

#include <algorithm>
#include <cstddef>

#include "lane_sum.hpp"

namespace minighost {
namespace {

// Each stencil is the average at cell pointer `c`, its points added in the reference's order
// (strides sy to the next row, sz to the next plane).
struct FivePoint2d {
  std::ptrdiff_t sy, sz;
  double operator()(const double* c) const { return (c[-1] + c[-sy] + c[0] + c[sy] + c[1]) / 5.0; }
};

struct NinePoint2d {
  std::ptrdiff_t sy, sz;
  double operator()(const double* c) const {
    return (c[-sy - 1] + c[-1] + c[sy - 1] + c[-sy] + c[0] + c[sy] + c[-sy + 1] + c[1] + c[sy + 1]) / 9.0;
  }
};

struct SevenPoint3d {
  std::ptrdiff_t sy, sz;
  double operator()(const double* c) const { return (c[-sz] + c[-1] + c[-sy] + c[0] + c[sy] + c[1] + c[sz]) / 7.0; }
};

struct TwentySevenPoint3d {
  std::ptrdiff_t sy, sz;
  // The 3x3 square of a plane around p (rows south, centre, north), summed in the reference's order.
  double square(const double* p) const {
    return p[-sy - 1] + p[-1] + p[sy - 1] + p[-sy] + p[0] + p[sy] + p[-sy + 1] + p[1] + p[sy + 1];
  }
  double operator()(const double* c) const { return (square(c - sz) + square(c) + square(c + sz)) / 27.0; }
};

// Rows shorter than this are swept plane by plane as one flat run (see sweep_planes).
constexpr int short_row = 32;

// Cells from (1, 1, k) to (nx, ny, k): ny rows, stride sy apart.
std::size_t plane_span(const FieldView& f) {
  return static_cast<std::size_t>(f.ny - 1) * static_cast<std::size_t>(f.stride_y) + static_cast<std::size_t>(f.nx);
}

// out[i] = average(cells + i) for i in [first, end).
template <class Average>
void average_run(const Average& average, const double* cells, double* __restrict out, std::ptrdiff_t first,
                 std::ptrdiff_t end) {
  for (std::ptrdiff_t i = first; i < end; ++i) out[i] = average(cells + i);
}

// The 27-point stencil's run, from nine streams (rows south, centre and north of the planes back,
// mine and front) that are restrict parameters. Through one pointer and 27 offsets GCC 12 does
// not vectorise this loop and runs it a cell at a time, 1.3-1.5x the Fortran reference's time
// (docs/originals.md); the sums are the same, in the same order.
using Stream = const double* __restrict;
inline double square(Stream s, Stream c, Stream n, std::ptrdiff_t i) {
  return s[i - 1] + c[i - 1] + n[i - 1] + s[i] + c[i] + n[i] + s[i + 1] + c[i + 1] + n[i + 1];
}
void average_run_27(Stream bs, Stream bc, Stream bn, Stream ms, Stream mc, Stream mn, Stream fs, Stream fc, Stream fn,
                    double* __restrict out, std::ptrdiff_t first, std::ptrdiff_t end) {
  for (std::ptrdiff_t i = first; i < end; ++i)
    out[i] = (square(bs, bc, bn, i) + square(ms, mc, mn, i) + square(fs, fc, fn, i)) / 27.0;
}
template <>
void average_run(const TwentySevenPoint3d& a, const double* cells, double* __restrict out, std::ptrdiff_t first,
                 std::ptrdiff_t end) {
  const std::ptrdiff_t y = a.sy, z = a.sz;
  average_run_27(cells - z - y, cells - z, cells - z + y, cells - y, cells, cells + y, cells + z - y, cells + z,
                 cells + z + y, out, first, end);
}

// Long rows: row by row into the dense work array (out[i] is cell i, 1-based like the field), then
// everything copied back, since the update is Jacobi and every read must see old values.
// __restrict lets the compiler vectorise over i: the work array never overlaps the field.
template <class Average>
double sweep_rows(const Average& average, const FieldView& f, double* __restrict work) {
  const std::ptrdiff_t nx = f.nx;
  for (int k = 1; k <= f.nz; ++k) {
    for (int j = 1; j <= f.ny; ++j) {
      double* __restrict out = work + ((static_cast<std::ptrdiff_t>(k) - 1) * f.ny + (j - 1)) * nx - 1;
      average_run(average, f.row(j, k), out, 1, nx + 1);
    }
  }
  for (int k = 1; k <= f.nz; ++k) {
    for (int j = 1; j <= f.ny; ++j) {
      const double* in = work + ((static_cast<std::ptrdiff_t>(k) - 1) * f.ny + (j - 1)) * nx;
      std::copy(in, in + nx, f.row(j, k) + 1);
    }
  }
  // The work array holds exactly the updated owned cells, densely: one long sum, no row ends.
  return dense_sum(work, static_cast<std::size_t>(nx) * static_cast<std::size_t>(f.ny) * static_cast<std::size_t>(f.nz));
}

// Short rows (miniGhost's small blocks): a loop per row of ten cells spends more on starting and
// ending the vector loop than on the cells. So a plane is swept as one flat run from (1, 1, k) to
// (nx, ny, k) in the field's own layout, ghost and padding columns included; what lands there is
// never used. Plane k is written to one of two plane buffers and copied back once plane k + 1 is
// done (the last plane that reads its old values), while it is still in cache.
template <class Average>
double sweep_planes(const Average& average, const FieldView& f, double* __restrict work) {
  const std::size_t span = plane_span(f);
  const std::ptrdiff_t sy = f.stride_y;
  const int nx = f.nx;
  auto buffer_of = [&](int k) { return work + static_cast<std::size_t>(k % 2) * span; };
  // The sum of the updated cells, taken while they are copied back: one partial sum per column
  // (nx < short_row of them), combined in column order at the end, so it is deterministic.
  double column_sums[short_row] = {};
  auto copy_back = [&](int k) {
    const double* __restrict plane = buffer_of(k);
    // Plain loops, not std::copy: rows this short cost more as library calls than as the moves.
    for (int j = 1; j <= f.ny; ++j) {
      const double* __restrict from = plane + (j - 1) * sy;
      double* __restrict to = f.row(j, k) + 1;
      for (int i = 0; i < nx; ++i) {
        to[i] = from[i];
        column_sums[i] += from[i];
      }
    }
  };
  for (int k = 1; k <= f.nz; ++k) {
    const double* first = f.row(1, k) + 1;
    average_run(average, first, buffer_of(k), 0, static_cast<std::ptrdiff_t>(span));
    if (k > 1) copy_back(k - 1);
  }
  copy_back(f.nz);
  double sum = 0.0;
  for (int i = 0; i < nx; ++i) sum += column_sums[i];
  return sum;
}

template <class Average>
double sweep(const FieldView& f, double* work) {
  const Average average{f.stride_y, f.stride_z};
  return f.nx < short_row ? sweep_planes(average, f, work) : sweep_rows(average, f, work);
}

}  // namespace

std::size_t stencil_work_elements(const FieldView& f) {
  const std::size_t dense = static_cast<std::size_t>(f.nx) * static_cast<std::size_t>(f.ny) * static_cast<std::size_t>(f.nz);
  return std::max(dense, 2 * plane_span(f));
}

double apply_stencil(Stencil stencil, const FieldView& f, double* work) {
  switch (stencil) {
    case Stencil::five_point_2d: return sweep<FivePoint2d>(f, work);
    case Stencil::nine_point_2d: return sweep<NinePoint2d>(f, work);
    case Stencil::seven_point_3d: return sweep<SevenPoint3d>(f, work);
    case Stencil::twenty_seven_point_3d: return sweep<TwentySevenPoint3d>(f, work);
  }
  return 0.0;
}

}  // namespace minighost
