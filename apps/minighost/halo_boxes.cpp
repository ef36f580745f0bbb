// SPDX-License-Identifier: BSD-3-Clause
// The halo boxes and phases of halo_boxes.hpp, and packing a box to and from a buffer, for the MPI
// baseline (see docs/minighost.md, "The MPI baseline").
#include "halo_boxes.hpp"

#include <algorithm>

namespace minighost {

std::size_t Box::cells() const {
  std::size_t n = 1;
  for (int a = 0; a < 3; ++a) n *= static_cast<std::size_t>(hi[a] - lo[a] + 1);
  return n;
}

namespace {

// The face boxes of `axis` on `side`: the other two axes span [first, last] per axis.
HaloLink make_link(const Decomposition& d, Axis axis, Side side, const int first[3], const int last[3]) {
  const auto& n = d.block();
  HaloLink link{axis, side, d.neighbour(axis, side), {}, {}};
  for (int a = 0; a < 3; ++a) {
    link.send.lo[a] = link.receive.lo[a] = first[a];
    link.send.hi[a] = link.receive.hi[a] = last[a];
  }
  const int owned = side == Side::low ? 1 : n[axis];
  const int ghost = side == Side::low ? 0 : n[axis] + 1;
  link.send.lo[axis] = link.send.hi[axis] = owned;
  link.receive.lo[axis] = link.receive.hi[axis] = ghost;
  return link;
}

void add_links(const Decomposition& d, Axis axis, const int first[3], const int last[3], HaloPhase& phase) {
  for (Side side : {Side::low, Side::high}) {
    if (!d.on_physical_boundary(axis, side)) phase.push_back(make_link(d, axis, side, first, last));
  }
}

}  // namespace

std::vector<HaloPhase> halo_phases(const Decomposition& d, HaloShape shape) {
  const auto& n = d.block();
  std::vector<HaloPhase> phases;
  if (shape == HaloShape::faces) {
    const int first[3] = {1, 1, 1};
    const int last[3] = {n[0], n[1], n[2]};
    HaloPhase all;
    for (Axis axis : {x, y, z}) add_links(d, axis, first, last, all);
    phases.push_back(std::move(all));
    return phases;
  }
  // Axes exchanged earlier contribute their ghost cells, so later boxes grow to include them.
  int first[3] = {1, 1, 1};
  int last[3] = {n[0], n[1], n[2]};
  for (Axis axis : {x, y, z}) {
    HaloPhase phase;
    add_links(d, axis, first, last, phase);
    phases.push_back(std::move(phase));
    first[axis] = 0;
    last[axis] = n[axis] + 1;
  }
  return phases;
}

std::size_t pack_box(const FieldView& f, const Box& b, double* out) {
  const int row = b.hi[0] - b.lo[0] + 1;
  double* next = out;
  for (int k = b.lo[2]; k <= b.hi[2]; ++k) {
    for (int j = b.lo[1]; j <= b.hi[1]; ++j) {
      const double* source = f.row(j, k) + b.lo[0];
      next = std::copy(source, source + row, next);
    }
  }
  return static_cast<std::size_t>(next - out);
}

std::size_t unpack_box(const FieldView& f, const Box& b, const double* in) {
  const int row = b.hi[0] - b.lo[0] + 1;
  const double* next = in;
  for (int k = b.lo[2]; k <= b.hi[2]; ++k) {
    for (int j = b.lo[1]; j <= b.hi[1]; ++j) {
      std::copy(next, next + row, f.row(j, k) + b.lo[0]);
      next += row;
    }
  }
  return static_cast<std::size_t>(next - in);
}

}  // namespace minighost
