// SPDX-License-Identifier: BSD-3-Clause
// Halo updates of Grid<T, N>: after every update each ghost cell must hold the value of the cell
// it mirrors (its global index, plus a round and grid offset so stale or misplaced values show),
// ghost cells no update covers (open boundaries, corners with Stencil::faces) must keep their
// sentinel, and owned cells must not change. Uneven extents, blocks thinner than the halo, ranks
// that own nothing, every stencil shape, periodic and open boundaries, several grids per update in
// both message modes, synchronous and asynchronous.
#include <cmath>
#include <cstdint>
#include <sstream>

#include "ghostwire/dist.hpp"
#include "mpi_test_main.hpp"
#include "padded_block.hpp"

using namespace ghostwire;

namespace {

constexpr double sentinel = -1.0;

struct HaloCase {
  int dimensions;
  std::array<Index, 3> extents;
  std::array<Index, 3> width;
  std::array<bool, 3> periodic;
  Stencil stencil;
  // 0: make_pattern; 1: all ranks in dimension 0; 2: all ranks in the last dimension; 3: make_pattern
  // placed hierarchically on the machine; 4: make_pattern's team, position p on rank (5p + 3) mod
  // ranks turned around (a placement that moves every block, whatever the machine).
  int team_layout;
  std::string name() const {
    std::ostringstream text;
    text << dimensions << "d";
    for (int d = 0; d < dimensions; ++d) text << (d ? "x" : "_") << extents[d];
    text << "_w";
    for (int d = 0; d < dimensions; ++d) text << width[d];
    text << "_";
    for (int d = 0; d < dimensions; ++d) text << (periodic[d] ? "p" : "o");
    text << (stencil == Stencil::faces ? "_faces" : "_full") << "_team" << team_layout;
    return text.str();
  }
};

// A permutation of 0..ranks-1 that moves (almost) every position.
std::vector<int> scrambled(int ranks) {
  std::vector<int> rank_of;
  for (int p = 0; p < ranks; ++p) rank_of.push_back(ranks - 1 - p);
  for (int p = 0; p + 1 < ranks; p += 2) std::swap(rank_of[p], rank_of[p + 1]);
  return rank_of;
}

template <int N>
Pattern<N> pattern_for(const HaloCase& c, int ranks) {
  Point<N> e{};
  for (int d = 0; d < N; ++d) e[d] = c.extents[d];
  if (c.team_layout == 0) return make_pattern<N>(e, ranks);
  if (c.team_layout == 3) {
    std::array<bool, N> periodic{};
    for (int d = 0; d < N; ++d) periodic[d] = c.periodic[d];
    return make_pattern<N>(gwtest::world(), e, Placement::hierarchical, periodic);
  }
  if (c.team_layout == 4) {
    Pattern<N> p = make_pattern<N>(e, ranks);
    std::array<Distribution, N> blocked;
    blocked.fill(BLOCKED);
    return Pattern<N>(e, blocked, TeamSpec<N>(p.team().extents(), scrambled(ranks)));
  }
  std::array<int, N> team;
  team.fill(1);
  team[c.team_layout == 1 ? 0 : N - 1] = ranks;
  std::array<Distribution, N> blocked;
  blocked.fill(BLOCKED);
  return Pattern<N>(e, blocked, TeamSpec<N>(team));
}

template <int N>
Halo<N> halo_for(const HaloCase& c) {
  Halo<N> h;
  for (int d = 0; d < N; ++d) {
    h.width[d] = c.width[d];
    h.periodic[d] = c.periodic[d];
  }
  h.stencil = c.stencil;
  return h;
}

// The value of global cell g (unwrapped) after round `round` in grid `grid`, or the sentinel where
// no update writes: beyond an open boundary, or on an edge or corner with Stencil::faces.
template <int N>
double expected_value(const Point<N>& extents, const HaloCase& c, Point<N> g, const Point<N>& local,
                      const Point<N>& local_extent, int round, int grid) {
  int sides = 0;
  for (int d = 0; d < N; ++d) sides += local[d] < 0 || local[d] >= local_extent[d];
  if (sides > 1 && c.stencil == Stencil::faces) return sentinel;
  double linear = 0;
  for (int d = 0; d < N; ++d) {
    if (g[d] < 0 || g[d] >= extents[d]) {
      if (!c.periodic[d]) return sentinel;
      g[d] = ((g[d] % extents[d]) + extents[d]) % extents[d];
    }
    linear = linear * static_cast<double>(extents[d]) + static_cast<double>(g[d]);
  }
  return linear + 1000000.0 * round + 100000000.0 * grid;
}

using gwtest::for_each_padded;

template <class T, int N>
void set_round(Grid<T, N>& grid, const HaloCase& c, int round, int index) {
  Point<N> width = grid.halo().width;
  for_each_padded<N>(grid.local_extents(), width, [&](const Point<N>& l) {
    bool owned = grid.local_box().contains(l);
    double v = owned ? expected_value<N>(grid.extents(), c, grid.to_global(l), l, grid.local_extents(), round, index)
                     : sentinel;
    grid[l] = static_cast<T>(v);
  });
}

template <class T, int N>
::testing::AssertionResult check_round(const Grid<T, N>& grid, const HaloCase& c, int round, int index) {
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  bool failed = false;
  for_each_padded<N>(grid.local_extents(), grid.halo().width, [&](const Point<N>& l) {
    if (failed) return;
    double want = expected_value<N>(grid.extents(), c, grid.to_global(l), l, grid.local_extents(), round, index);
    double got = static_cast<double>(grid[l]);
    if (got != static_cast<double>(static_cast<T>(want))) {
      failed = true;
      std::ostringstream text;
      text << "grid " << index << " round " << round << " local cell (";
      for (int d = 0; d < N; ++d) text << (d ? ", " : "") << l[d];
      text << ") of rank " << grid.world().rank() << ": got " << got << ", expected " << want << " (" << grid.describe()
           << ")";
      result = ::testing::AssertionFailure() << text.str();
    }
  });
  return result;
}

template <int N>
void run_case(const HaloCase& c) {
  World& world = gwtest::world();
  auto pattern = pattern_for<N>(c, world.size());
  auto halo = halo_for<N>(c);
  Grid<double, N> a(world, pattern, halo), b(world, pattern, halo);
  Grid<std::int64_t, N> k(world, pattern, halo);  // another element type in the same update

  int round = 0;
  // Single grid, synchronous and asynchronous.
  for (int mode = 0; mode < 2; ++mode, ++round) {
    set_round(a, c, round, 0);
    if (mode == 0) {
      a.update_halo();
    } else {
      HaloHandle h = a.update_halo_async();
      h.wait();
    }
    ASSERT_TRUE(check_round(a, c, round, 0));
  }
  // Three grids, one message per neighbour, then one message per grid (all, then each alone).
  HaloUpdate together({&a, &b, &k});
  HaloUpdate separately({&a, &b, &k}, HaloMessages::per_variable);
  for (int mode = 0; mode < 4; ++mode, ++round) {
    set_round(a, c, round, 0);
    set_round(b, c, round, 1);
    set_round(k, c, round, 2);
    if (mode == 0) {
      together.run();
    } else if (mode == 1) {
      together.start().wait();
    } else if (mode == 2) {
      separately.run();
    } else {
      auto first = separately.start(0);
      separately.run(2);
      first.wait();
      separately.run(1);
    }
    ASSERT_TRUE(check_round(a, c, round, 0)) << "mode " << mode;
    ASSERT_TRUE(check_round(b, c, round, 1)) << "mode " << mode;
    ASSERT_TRUE(check_round(k, c, round, 2)) << "mode " << mode;
  }
  world.barrier();
}

class GridHalo : public testing::TestWithParam<HaloCase> {};

TEST_P(GridHalo, EveryGhostCellHoldsItsOwnersValue) {
  const HaloCase& c = GetParam();
  if (c.dimensions == 1) run_case<1>(c);
  if (c.dimensions == 2) run_case<2>(c);
  if (c.dimensions == 3) run_case<3>(c);
}

std::vector<HaloCase> halo_cases() {
  std::vector<HaloCase> cases;
  const bool t = true, f = false;
  for (Stencil s : {Stencil::faces, Stencil::full}) {
    for (auto p : {std::array<bool, 3>{t, t, t}, {f, f, f}, {t, f, t}, {f, t, f}}) {
      cases.push_back({2, {13, 11, 1}, {1, 1, 0}, p, s, 0});
      cases.push_back({2, {9, 17, 1}, {2, 1, 0}, p, s, 0});
      cases.push_back({3, {7, 6, 5}, {1, 1, 1}, p, s, 0});
    }
    for (bool periodic : {t, f}) {
      std::array<bool, 3> p{periodic, periodic, periodic};
      cases.push_back({1, {23, 1, 1}, {2, 0, 0}, p, s, 0});
      cases.push_back({1, {5, 1, 1}, {3, 0, 0}, p, s, 0});            // halo wider than blocks; empty ranks
      cases.push_back({2, {9, 7, 1}, {1, 2, 0}, p, s, 1});            // 9 rows over 4 ranks: 3,3,3,0
      cases.push_back({2, {6, 10, 1}, {2, 3, 0}, p, s, 2});           // thin blocks, wide halo
      cases.push_back({3, {4, 9, 5}, {1, 2, 1}, p, s, 2});
      cases.push_back({3, {8, 3, 3}, {2, 1, 1}, p, s, 1});
      cases.push_back({2, {12, 12, 1}, {0, 1, 0}, p, s, 0});          // no ghosts in one dimension
      cases.push_back({2, {7, 133, 1}, {1, 2, 0}, p, s, 1});          // rows long enough to be padded
      cases.push_back({3, {4, 5, 70}, {1, 1, 3}, p, s, 0});
      // Placed teams: only who computes a block changes, so every ghost still holds its value.
      for (int placed : {3, 4}) {
        cases.push_back({2, {13, 11, 1}, {1, 1, 0}, p, s, placed});
        cases.push_back({3, {7, 6, 5}, {1, 1, 1}, p, s, placed});
        cases.push_back({3, {16, 12, 8}, {1, 1, 1}, p, s, placed});
      }
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Cases, GridHalo, testing::ValuesIn(halo_cases()),
                         [](const testing::TestParamInfo<HaloCase>& param) { return param.param.name(); });

TEST(GridHalo, RepeatedUpdatesNeverSeeStaleValues) {
  // Many rounds in a row, values changing every round, owned cells rewritten right after each
  // update returns (a neighbour still reading them would be caught).
  World& world = gwtest::world();
  HaloCase c{2, {20, 14, 1}, {1, 1, 0}, {true, true, false}, Stencil::full, 0};
  auto pattern = pattern_for<2>(c, world.size());
  Grid<double, 2> g(world, pattern, halo_for<2>(c));
  for (int round = 0; round < 50; ++round) {
    set_round(g, c, round, 0);
    if (round % 3 == 0) {
      g.update_halo();
    } else {
      auto h = g.update_halo_async();
      h.wait();
    }
    ASSERT_TRUE(check_round(g, c, round, 0));
  }
  world.barrier();
}

}  // namespace
