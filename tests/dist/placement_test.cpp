// SPDX-License-Identifier: BSD-3-Clause
// Placement of a team on the machine (Placement, TeamSpec::placed): the placement is the same
// permutation on every rank, automatic follows whether a topology is known, and the hierarchical
// placement cuts no more neighbour pairs between nodes than rank order (fewer when the launcher
// placed ranks round robin over hosts: GHOSTWIRE_TEST_PLACEMENT_MOVES=1). The halo values of placed
// grids are checked with every other grid case (grid_halo_test.cpp, team3 and team4).
#include <cstdlib>
#include <vector>

#include "ghostwire/dist.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

std::vector<int> rank_of(const TeamSpec<3>& team) {
  const TeamSpec<3> positions(team.extents());
  std::vector<int> r;
  for (int p = 0; p < team.size(); ++p) r.push_back(team.rank(positions.coords(p)));
  return r;
}

// Neighbour pairs (periodic faces) of the team whose ranks are on different nodes.
int pairs_between_nodes(const World& world, const TeamSpec<3>& team) {
  int cut = 0;
  const TeamSpec<3> positions(team.extents());
  for (int p = 0; p < team.size(); ++p) {
    const auto c = positions.coords(p);
    for (int d = 0; d < 3; ++d) {
      if (team.extent(d) == 1) continue;
      auto n = c;
      n[d] = (n[d] + 1) % team.extent(d);
      cut += world.node_of(team.rank(c)) != world.node_of(team.rank(n));
    }
  }
  return cut;
}

TEST(Placement, HierarchicalIsOnePermutationOnEveryRank) {
  World& world = gwtest::world();
  const auto team = TeamSpec<3>::balanced(world.size());
  const auto placed = TeamSpec<3>::placed(world, team.extents(), Placement::hierarchical, {true, true, true}, {32, 32, 32});
  std::vector<int> mine = rank_of(placed), seen(static_cast<std::size_t>(world.size()), 0);
  for (int r : mine) {
    ASSERT_GE(r, 0);
    ASSERT_LT(r, world.size());
    ++seen[static_cast<std::size_t>(r)];
  }
  for (int n : seen) EXPECT_EQ(n, 1);
  for (int r = 0; r < world.size(); ++r) EXPECT_EQ(placed.rank(placed.coords(r)), r);
  std::vector<int> first = mine;
  MPI_Bcast(first.data(), static_cast<int>(first.size()), MPI_INT, 0, world.comm());
  EXPECT_EQ(first, mine);
}

TEST(Placement, AutomaticIsHierarchicalWhenATopologyIsKnown) {
  World& world = gwtest::world();
  const auto team = TeamSpec<3>::balanced(world.size());
  const auto automatic = TeamSpec<3>::placed(world, team.extents(), Placement::automatic);
  const auto hierarchical = TeamSpec<3>::placed(world, team.extents(), Placement::hierarchical);
  const auto rank_order = TeamSpec<3>::placed(world, team.extents(), Placement::rank_order);
  EXPECT_EQ(rank_order, team);
  EXPECT_EQ(automatic, detail::topology_known(world) ? hierarchical : team);
}

TEST(Placement, HierarchicalCutsNoMoreNeighboursBetweenNodes) {
  World& world = gwtest::world();
  // The balanced team, and a ring (where ranks alternating between two hosts cut every pair; on a
  // 2 x 2 or 2 x 2 x 2 team alternating hosts is already the best cut).
  for (const auto& extents : {TeamSpec<3>::balanced(world.size()).extents(), std::array<int, 3>{world.size(), 1, 1}}) {
    const TeamSpec<3> team(extents);
    const auto placed = TeamSpec<3>::placed(world, extents, Placement::hierarchical, {true, true, true}, {32, 32, 32});
    const int before = pairs_between_nodes(world, team), after = pairs_between_nodes(world, placed);
    EXPECT_LE(after, before) << "rank order " << before << ", hierarchical " << after;
    const char* moves = std::getenv("GHOSTWIRE_TEST_PLACEMENT_MOVES");
    if (moves && std::string(moves) == "1" && extents[1] == 1 && extents[2] == 1) {
      EXPECT_NE(placed.placement(), nullptr);
      EXPECT_LT(after, before) << "ring: rank order " << before << ", hierarchical " << after;
    }
  }
}

TEST(Placement, OneDimensionalChainKeepsNeighboursOnNode) {
  // Heat's chain of bands (apps/heat --placement): open ends.
  World& world = gwtest::world();
  const TeamSpec<1> chain({world.size()});
  const auto placed = TeamSpec<1>::placed(world, {world.size()}, Placement::hierarchical, {false}, {64});
  int before = 0, after = 0;
  for (int p = 0; p + 1 < world.size(); ++p) {
    before += world.node_of(chain.rank({p})) != world.node_of(chain.rank({p + 1}));
    after += world.node_of(placed.rank({p})) != world.node_of(placed.rank({p + 1}));
  }
  EXPECT_LE(after, before);
  const char* moves = std::getenv("GHOSTWIRE_TEST_PLACEMENT_MOVES");
  if (moves && std::string(moves) == "1") {
    EXPECT_EQ(after, 1) << "rank order " << before;  // two hosts: one cut
  }
}

TEST(Placement, ExplicitPermutationIsChecked) {
  EXPECT_THROW(TeamSpec<2>({2, 2}, {0, 1, 1, 3}), Error);
  EXPECT_THROW(TeamSpec<2>({2, 2}, {0, 1, 2}), Error);
  const TeamSpec<2> t({2, 2}, {3, 2, 1, 0});
  EXPECT_EQ(t.rank({0, 0}), 3);
  EXPECT_EQ(t.coords(3), (std::array<int, 2>{0, 0}));
  EXPECT_EQ(TeamSpec<2>({2, 2}, {0, 1, 2, 3}), TeamSpec<2>({2, 2}));  // the identity is rank order
  EXPECT_EQ(placement_from_name("hierarchical"), Placement::hierarchical);
  EXPECT_THROW(placement_from_name("nearby"), Error);
}

}  // namespace
