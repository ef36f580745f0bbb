// SPDX-License-Identifier: BSD-3-Clause
// TeamSpec<N>: the ranks arranged as an N-d Cartesian grid. Positions are numbered row-major (the
// last coordinate varies fastest, as in MPI_Cart_create and DASH); position p is on rank p unless
// the team is placed (Placement, docs/topology.md), which changes only which rank computes which
// position.
#pragma once

#include <array>
#include <utility>
#include <vector>

#include "ghostwire/dist/pattern_core.hpp"

namespace ghostwire {

class World;

namespace detail {
// Collective over `world`: rank_of[position] for a team of these extents (`block`: cells per block
// and dimension, which weigh the faces; `periodic`: the halo wraps around). Placement::automatic
// resolves as described at Placement.
std::vector<int> place_team(World& world, int dimensions, const int* team, const bool* periodic, const Index* block,
                            Placement placement);
// The world's settings name a topology file (GHOSTWIRE_TOPOLOGY) or it has more than one
// (possibly emulated) node.
bool topology_known(const World& world);
}  // namespace detail

template <int N>
class TeamSpec {
  static_assert(N >= 1 && N <= detail::max_dimensions, "TeamSpec: 1 to 8 dimensions");

 public:
  // Given extents (each >= 1).
  explicit TeamSpec(const std::array<int, N>& extents) : extents_(extents) {
    detail::check_team(N, extents_.data(), "TeamSpec");
  }
  // Position p (row-major) computed by rank_of[p]; throws unless rank_of is a permutation.
  TeamSpec(const std::array<int, N>& extents, std::vector<int> rank_of) : TeamSpec(extents) {
    placement_ = detail::RankPermutation::make(std::move(rank_of), size(), "TeamSpec");
  }
  // Collective over `world` (world.size() must be the team's size): the team placed on the
  // machine. `periodic` and `block` (cells per block) describe the halo exchange the placement
  // should keep inside nodes; without them every dimension is open and blocks are cubes.
  static TeamSpec placed(World& world, const std::array<int, N>& extents, Placement placement,
                         const std::array<bool, N>& periodic = {}, const Point<N>& block = {}) {
    TeamSpec team(extents);
    team.placement_ = detail::RankPermutation::make(
        detail::place_team(world, N, extents.data(), periodic.data(), block.data(), placement), team.size(),
        "TeamSpec::placed");
    return team;
  }
  // `ranks` spread as evenly as possible, like MPI_Dims_create: balanced(12) in 2-D is 4 x 3.
  static TeamSpec balanced(int ranks) {
    std::array<int, N> e{};
    detail::balanced_team(ranks, N, e.data());
    return TeamSpec(e);
  }
  // The arrangement with the fewest ghost cells per block for a grid of `extents`: balanced(4,
  // {1000, 10}) is 4 x 1. Ties go to splitting the slower dimensions (contiguous halo messages).
  static TeamSpec balanced(int ranks, const Point<N>& extents) {
    std::array<int, N> e{};
    std::array<bool, N> distributed;
    distributed.fill(true);
    detail::team_for_extents(ranks, N, extents.data(), distributed.data(), e.data());
    return TeamSpec(e);
  }

  int size() const noexcept {
    int n = 1;
    for (int e : extents_) n *= e;
    return n;
  }
  int extent(int d) const noexcept { return extents_[static_cast<std::size_t>(d)]; }
  const std::array<int, N>& extents() const noexcept { return extents_; }
  // The rank computing the position at `coords`, and the position `rank` computes.
  int rank(const std::array<int, N>& coords) const noexcept {
    const int position = detail::team_rank(N, extents_.data(), coords.data());
    return placement_ ? placement_->rank_of[static_cast<std::size_t>(position)] : position;
  }
  std::array<int, N> coords(int rank) const noexcept {
    std::array<int, N> c{};
    const int position = placement_ ? placement_->position_of[static_cast<std::size_t>(rank)] : rank;
    detail::team_coords(N, extents_.data(), position, c.data());
    return c;
  }
  // Null when position p is on rank p.
  const detail::Permutation& placement() const noexcept { return placement_; }
  bool operator==(const TeamSpec& other) const noexcept {
    if (extents_ != other.extents_) return false;
    if (!placement_ || !other.placement_) return placement_ == other.placement_;
    return placement_->rank_of == other.placement_->rank_of;
  }

 private:
  std::array<int, N> extents_;
  detail::Permutation placement_;
};

}  // namespace ghostwire
