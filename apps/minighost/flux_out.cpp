// SPDX-License-Identifier: BSD-3-Clause
// BoundaryOutflow (flux_out.hpp): the cells whose stencil reaches out of the global grid, and how
// many points each loses there, found once per run (see docs/minighost.md, "Semantics", Flux out).
#include "flux_out.hpp"

#include <stdexcept>
#include <string>

#include "lane_sum.hpp"

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

BoundaryOutflow::BoundaryOutflow(Stencil stencil, const Decomposition& d) : points_(stencil_points(stencil)) {
  const auto& block = d.block();
  nx_ = block[x];
  ny_ = block[y];
  nz_ = block[z];
  auto reach = [&](Axis axis, int cells) {
    return AxisReach{d.on_physical_boundary(axis, Side::low), d.on_physical_boundary(axis, Side::high), cells};
  };
  const AxisReach reach_x = reach(x, nx_), reach_y = reach(y, ny_);
  // 2-D stencils never reach across z, so z boundaries lose nothing.
  const AxisReach reach_z = stencil_is_3d(stencil) ? reach(z, nz_) : AxisReach{false, false, nz_};
  for (int k = 1; k <= nz_; ++k) {
    for (int j = 1; j <= ny_; ++j) {
      for (int i = 1; i <= nx_; ++i) {
        const int outside = outside_points(stencil, reach_x(i), reach_y(j), reach_z(k));
        if (outside == 0) continue;
        cells_.push_back({i, j, k});
        weights_.push_back(outside);
      }
    }
  }
}

double BoundaryOutflow::operator()(const FieldView& f) const {
  if (f.nx != nx_ || f.ny != ny_ || f.nz != nz_) {
    throw std::logic_error("BoundaryOutflow: field of " + std::to_string(f.nx) + "x" + std::to_string(f.ny) + "x" +
                           std::to_string(f.nz) + " cells, but the weights are for " + std::to_string(nx_) + "x" +
                           std::to_string(ny_) + "x" + std::to_string(nz_));
  }
  if (f.stride_y != stride_y_ || f.stride_z != stride_z_) {
    offsets_.clear();
    for (const Cell& c : cells_) offsets_.push_back(c.i + c.j * f.stride_y + c.k * f.stride_z);
    stride_y_ = f.stride_y;
    stride_z_ = f.stride_z;
  }
  // Sum of value * outside points, divided once at the end.
  return gathered_weighted_sum(f.data, offsets_.data(), weights_.data(), weights_.size()) / points_;
}

}  // namespace minighost
