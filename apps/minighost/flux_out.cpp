#include "flux_out.hpp"

namespace minighost {
namespace {

// Along one axis, how many of the offsets -1, 0, +1 from local index `index` stay in the global
// grid: 3 inside, 2 next to one physical boundary, 1 when a one-cell-wide grid touches both.
struct AxisReach {
  bool low_is_physical;
  bool high_is_physical;
  int cells;
  int operator()(int index) const {
    return 3 - (low_is_physical && index == 1 ? 1 : 0) - (high_is_physical && index == cells ? 1 : 0);
  }
};

int outside_points(Stencil stencil, int reach_x, int reach_y, int reach_z) {
  switch (stencil) {
    case Stencil::five_point_2d: return (3 - reach_x) + (3 - reach_y);
    case Stencil::seven_point_3d: return (3 - reach_x) + (3 - reach_y) + (3 - reach_z);
    case Stencil::nine_point_2d: return 9 - reach_x * reach_y;
    case Stencil::twenty_seven_point_3d: return 27 - reach_x * reach_y * reach_z;
  }
  return 0;
}

}  // namespace

double boundary_outflow(Stencil stencil, const FieldView& f, const Decomposition& d) {
  auto reach = [&](Axis axis, int cells) {
    return AxisReach{d.on_physical_boundary(axis, Side::low), d.on_physical_boundary(axis, Side::high), cells};
  };
  const AxisReach reach_x = reach(x, f.nx), reach_y = reach(y, f.ny);
  // 2-D stencils never reach across z, so z boundaries lose nothing.
  const AxisReach reach_z = stencil_is_3d(stencil) ? reach(z, f.nz) : AxisReach{false, false, f.nz};

  double weighted = 0.0;  // sum of value * outside points; divided once at the end
  for (int k = 1; k <= f.nz; ++k) {
    const int rz = reach_z(k);
    for (int j = 1; j <= f.ny; ++j) {
      const int ry = reach_y(j);
      const double* row = f.row(j, k);
      if (ry == 3 && rz == 3) {
        // An inner row only loses through its two end cells, if they are on the physical boundary.
        if (reach_x.low_is_physical) weighted += row[1] * outside_points(stencil, reach_x(1), 3, 3);
        if (reach_x.high_is_physical && (f.nx > 1 || !reach_x.low_is_physical)) {
          weighted += row[f.nx] * outside_points(stencil, reach_x(f.nx), 3, 3);
        }
        continue;
      }
      for (int i = 1; i <= f.nx; ++i) weighted += row[i] * outside_points(stencil, reach_x(i), ry, rz);
    }
  }
  return weighted / stencil_points(stencil);
}

}  // namespace minighost
