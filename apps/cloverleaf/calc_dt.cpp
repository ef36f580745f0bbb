// SPDX-License-Identifier: BSD-3-Clause
// calc_dt_kernel.f90: the largest stable timestep of each cell (sound speed with viscosity, x and y
// velocity through the faces, divergence), minimised over the chunk. The reference's kernel reports
// a fixed control ('sound', cell 1,1) because its jk_control bookkeeping was stubbed out; here the
// row with the minimum is swept again to find the limiting cell and condition, which leaves the
// minimum itself (and so every result) unchanged.
//
// See docs/cloverleaf.md, "Kernels and exactness".
#include <algorithm>
#include <cmath>

#include "kernels.hpp"

namespace cloverleaf {
namespace {

// The reference's g_small and g_big are REAL(8) parameters initialised from default-precision
// (single) literals.
constexpr double g_small = static_cast<double>(1.0e-16f);
constexpr double g_big = static_cast<double>(1.0e+21f);

struct DtRow {
  const double* celldx;
  double celldy;
  const double* soundspeed;
  const double* viscosity;
  const double* density0;
  const double* volume;
  const double* xarea;
  const double* yarea;
  const double* yarea_up;
  const double* xv;
  const double* xv_up;
  const double* yv;
  const double* yv_up;
};

// Fortran's MIN and MAX on values, not references (std::min and std::max return references, which
// keeps GCC from turning them into vector selects).
inline double min2(double a, double b) { return b < a ? b : a; }
inline double max2(double a, double b) { return a < b ? b : a; }

struct Safety {
  double dtc, dtu, dtv, dtdiv;
};

struct CellDt {
  double dtct, dtut, dtvt, dtdivt;
};

// One cell's four limits, the reference's arithmetic.
inline CellDt cell_dt(const double* __restrict celldx, double celldy, const double* __restrict soundspeed,
                      const double* __restrict viscosity, const double* __restrict density0,
                      const double* __restrict volume, const double* __restrict xarea,
                      const double* __restrict yarea, const double* __restrict yarea_up, const double* __restrict xv,
                      const double* __restrict xv_up, const double* __restrict yv, const double* __restrict yv_up,
                      const Safety& s, Index j) {
  const double dsx = celldx[j];
  const double dsy = celldy;
  double cc = soundspeed[j] * soundspeed[j];
  cc = cc + 2.0 * viscosity[j] / density0[j];
  cc = max2(std::sqrt(cc), g_small);
  const double dtct = s.dtc * min2(dsx, dsy) / cc;
  double div = 0.0;
  double dv1 = (xv[j] + xv_up[j]) * xarea[j];
  double dv2 = (xv[j + 1] + xv_up[j + 1]) * xarea[j + 1];
  div = div + dv2 - dv1;
  const double dtut = s.dtu * 2.0 * volume[j] / max2(max2(std::abs(dv1), std::abs(dv2)), g_small * volume[j]);
  dv1 = (yv[j] + yv[j + 1]) * yarea[j];
  dv2 = (yv_up[j] + yv_up[j + 1]) * yarea_up[j];
  div = div + dv2 - dv1;
  const double dtvt = s.dtv * 2.0 * volume[j] / max2(max2(std::abs(dv1), std::abs(dv2)), g_small * volume[j]);
  div = div / (2.0 * volume[j]);
  // Computed whether used or not (a division by 0 gives an unused inf), so the loop has no branch.
  const double converging = s.dtdiv * (-1.0 / div);
  const double dtdivt = div < -g_small ? converging : g_big;
  return {dtct, dtut, dtvt, dtdivt};
}

inline CellDt cell_dt(const DtRow& r, const Safety& s, Index j) {
  return cell_dt(r.celldx, r.celldy, r.soundspeed, r.viscosity, r.density0, r.volume, r.xarea, r.yarea, r.yarea_up,
                 r.xv, r.xv_up, r.yv, r.yv_up, s, j);
}

// The row's smallest limit. Each cell's limit goes to `cell_min` first (a loop of divisions and
// square roots that vectorises: restrict parameters, and not inlined, where GCC would lose them),
// then the row is scanned: min is exact, so the order does not matter.
[[gnu::noinline]] double row_min(const double* __restrict celldx, double celldy, const double* __restrict soundspeed,
               const double* __restrict viscosity, const double* __restrict density0, const double* __restrict volume,
               const double* __restrict xarea, const double* __restrict yarea, const double* __restrict yarea_up,
               const double* __restrict xv, const double* __restrict xv_up, const double* __restrict yv,
               const double* __restrict yv_up, const Safety& s, Index j0, Index j1, double* __restrict cell_min) {
  for (Index j = j0; j <= j1; ++j) {
    const CellDt t = cell_dt(celldx, celldy, soundspeed, viscosity, density0, volume, xarea, yarea, yarea_up, xv,
                             xv_up, yv, yv_up, s, j);
    cell_min[j - j0] = min2(min2(t.dtct, t.dtut), min2(t.dtvt, t.dtdivt));
  }
  double m = g_big;
  for (Index j = j0; j <= j1; ++j) m = min2(m, cell_min[j - j0]);
  return m;
}

DtRow row_of(Chunk& c, Index k) {
  const Rows soundspeed = rows(c.soundspeed), visc = rows(c.viscosity), density0 = rows(c.density0);
  const Rows volume = rows(c.volume), xarea = rows(c.xarea), yarea = rows(c.yarea);
  const Rows xvel0 = rows(c.xvel0), yvel0 = rows(c.yvel0);
  return DtRow{c.celldx.at_zero(), c.celldy[k], soundspeed[k], visc[k],     density0[k], volume[k], xarea[k],
               yarea[k],           yarea[k + 1], xvel0[k],     xvel0[k + 1], yvel0[k],   yvel0[k + 1]};
}

}  // namespace

const char* control_name(DtControl c) {
  switch (c) {
    case DtControl::sound: return "sound";
    case DtControl::xvel: return "xvel";
    case DtControl::yvel: return "yvel";
    case DtControl::div: return "div";
  }
  return "?";
}

DtResult calc_dt(Chunk& c, const Deck& deck) {
  const Safety s{deck.dtc_safe, deck.dtu_safe, deck.dtv_safe, deck.dtdiv_safe};
  double dt_min_val = g_big;
  Index limiting_row = c.y_min;
  std::vector<double> cell_min(static_cast<std::size_t>(c.nx));
  for (Index k = c.y_min; k <= c.y_max; ++k) {
    const DtRow r = row_of(c, k);
    const double m = row_min(r.celldx, r.celldy, r.soundspeed, r.viscosity, r.density0, r.volume, r.xarea, r.yarea,
                             r.yarea_up, r.xv, r.xv_up, r.yv, r.yv_up, s, c.x_min, c.x_max, cell_min.data());
    if (m < dt_min_val) {
      dt_min_val = m;
      limiting_row = k;
    }
  }
  DtResult result;
  result.dt = dt_min_val;
  result.j = c.x_min;
  result.k = limiting_row;
  const DtRow r = row_of(c, limiting_row);
  for (Index j = c.x_min; j <= c.x_max; ++j) {
    const CellDt t = cell_dt(r, s, j);
    const double m = min2(min2(t.dtct, t.dtut), min2(t.dtvt, t.dtdivt));
    if (m != dt_min_val) continue;
    result.j = j;
    result.control = m == t.dtct ? DtControl::sound
                     : m == t.dtut ? DtControl::xvel
                     : m == t.dtvt ? DtControl::yvel
                                   : DtControl::div;
    break;
  }
  result.x = c.cellx[result.j];
  result.y = c.celly[result.k];
  return result;
}

}  // namespace cloverleaf
