// TeamSpec<N>: the ranks arranged as an N-d Cartesian grid, row-major (the last coordinate varies
// fastest, as in MPI_Cart_create and DASH).
#pragma once

#include <array>

#include "ghostwire/dist/pattern_core.hpp"

namespace ghostwire {

template <int N>
class TeamSpec {
  static_assert(N >= 1 && N <= detail::max_dimensions, "TeamSpec: 1 to 8 dimensions");

 public:
  // Given extents (each >= 1).
  explicit TeamSpec(const std::array<int, N>& extents) : extents_(extents) {
    detail::check_team(N, extents_.data(), "TeamSpec");
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
  int rank(const std::array<int, N>& coords) const noexcept { return detail::team_rank(N, extents_.data(), coords.data()); }
  std::array<int, N> coords(int rank) const noexcept {
    std::array<int, N> c{};
    detail::team_coords(N, extents_.data(), rank, c.data());
    return c;
  }
  bool operator==(const TeamSpec&) const = default;

 private:
  std::array<int, N> extents_;
};

}  // namespace ghostwire
