// SPDX-License-Identifier: BSD-3-Clause
// Pattern<N>: how an N-d index space is distributed over a TeamSpec, per dimension BLOCKED,
// CYCLIC, BLOCKCYCLIC(b), TILE(b) or NONE (DASH's patterns). It maps global coordinates to
// (rank, local coordinates) and back, and knows every rank's local extents. Sizes need not divide:
// the last blocks are then underfilled, and with BLOCKED some ranks may own nothing.
//
// Pure index arithmetic: a Pattern does not talk to other ranks and can be built anywhere.
#pragma once

#include <array>
#include <string>

#include "ghostwire/dist/box.hpp"
#include "ghostwire/dist/pattern_core.hpp"
#include "ghostwire/dist/team_spec.hpp"

namespace ghostwire {

template <int N>
class Pattern {
  static_assert(N >= 1 && N <= detail::max_dimensions, "Pattern: 1 to 8 dimensions");

 public:
  Pattern(const Point<N>& extents, const std::array<Distribution, N>& distribution, const TeamSpec<N>& team)
      : extents_(extents),
        team_(team),
        core_(N, extents.data(), distribution.data(), team.extents().data(), team.placement()) {}

  const Point<N>& extents() const noexcept { return extents_; }
  Index extent(int d) const noexcept { return extents_[static_cast<std::size_t>(d)]; }
  Index size() const noexcept { return core_.size(); }
  Distribution distribution(int d) const noexcept { return core_.distribution(d); }
  const TeamSpec<N>& team() const noexcept { return team_; }
  int ranks() const noexcept { return team_.size(); }

  // Global -> (rank, local). Coordinates must lie inside extents() (not checked here).
  int owner(const Point<N>& global) const noexcept { return core_.owner(global.data()); }
  Point<N> local_coords(const Point<N>& global) const noexcept {
    Point<N> l{};
    core_.local_coords(global.data(), l.data());
    return l;
  }
  // Position of the element in its owner's local storage.
  Index local_index(const Point<N>& global) const noexcept {
    return core_.local_offset(owner(global), local_coords(global).data());
  }
  // (rank, local) -> global.
  Point<N> global_coords(int rank, const Point<N>& local) const noexcept {
    Point<N> g{};
    core_.global_coords(rank, local.data(), g.data());
    return g;
  }
  Point<N> global_coords(int rank, Index local_index) const noexcept {
    Point<N> l{};
    core_.local_coords_of(rank, local_index, l.data());
    return global_coords(rank, l);
  }

  Point<N> local_extents(int rank) const noexcept {
    Point<N> e{};
    core_.local_extents(rank, e.data());
    return e;
  }
  Index local_size(int rank) const noexcept { return core_.local_size(rank); }

  // True when every rank holds one block (every dimension BLOCKED or NONE); then block(rank) is
  // its block in global coordinates.
  bool blocked() const noexcept { return core_.blocked(); }
  Box<N> block(int rank) const {
    Box<N> b;
    core_.block(rank, b.low.data(), b.extent.data());
    return b;
  }
  // The local coordinates of `rank`'s elements inside a global box (a box itself, possibly empty).
  Box<N> local_range(int rank, const Box<N>& global) const noexcept {
    Box<N> b;
    core_.local_range(rank, global.low.data(), global.extent.data(), b.low.data(), b.extent.data());
    return b;
  }

  // 1-D conveniences.
  int owner(Index global) const noexcept requires(N == 1) { return owner(Point<1>{global}); }
  Index local_index(Index global) const noexcept requires(N == 1) { return local_index(Point<1>{global}); }

  std::string describe() const { return core_.describe(); }
  const detail::PatternCore& core() const noexcept { return core_; }
  bool operator==(const Pattern& other) const noexcept { return core_ == other.core_; }

 private:
  Point<N> extents_;
  TeamSpec<N> team_;
  detail::PatternCore core_;
};

// BLOCKED in every dimension over the team with the fewest ghost cells per block.
template <int N>
Pattern<N> make_pattern(const Point<N>& extents, int ranks) {
  std::array<Distribution, N> blocked;
  blocked.fill(BLOCKED);
  return Pattern<N>(extents, blocked, TeamSpec<N>::balanced(ranks, extents));
}

// Given distributions; the team is balanced over the dimensions that are not NONE.
template <int N>
Pattern<N> make_pattern(const Point<N>& extents, const std::array<Distribution, N>& distribution, int ranks) {
  std::array<int, N> team{};
  std::array<bool, N> distributed{};
  for (int d = 0; d < N; ++d) distributed[d] = distribution[d].kind != DistributionKind::none;
  detail::team_for_extents(ranks, N, extents.data(), distributed.data(), team.data());
  return Pattern<N>(extents, distribution, TeamSpec<N>(team));
}

}  // namespace ghostwire
