// SPDX-License-Identifier: BSD-3-Clause
// A job reordered for a weighted graph (topo::map_graph(world, graph), topo::reordered): the
// assignment is one permutation on every rank, the new World's rank v is the process the
// assignment names, and the graph's weight between nodes is no more than in rank order (less when
// the launcher placed ranks round robin over two hosts: GHOSTWIRE_TEST_PLACEMENT_MOVES=1).
#include <cstdlib>
#include <string>
#include <vector>

#include "ghostwire/error.hpp"
#include "ghostwire/topo.hpp"
#include "ghostwire/world.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

// A ring of parts, heavy edges between consecutive parts and light ones two apart.
topo::Graph ring(int n) {
  topo::Graph g;
  g.offsets.push_back(0);
  for (int v = 0; v < n; ++v) {
    for (int step : {1, -1, 2, -2}) {
      const int w = ((v + step) % n + n) % n;
      if (w == v || (n <= 4 && (step == 2 || step == -2))) continue;
      g.targets.push_back(w);
      g.weights.push_back(step == 1 || step == -1 ? 8192 : 64);
    }
    g.offsets.push_back(static_cast<int>(g.targets.size()));
  }
  return g;
}

std::int64_t weight_between_nodes(const World& world, const topo::Graph& g, const topo::Assignment& rank_of) {
  std::int64_t total = 0;
  for (int v = 0; v < g.vertices(); ++v)
    for (int e = g.offsets[static_cast<std::size_t>(v)]; e < g.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
      const int w = g.targets[static_cast<std::size_t>(e)];
      if (world.node_of(rank_of[static_cast<std::size_t>(v)]) != world.node_of(rank_of[static_cast<std::size_t>(w)]))
        total += g.weights[static_cast<std::size_t>(e)];
    }
  return total;
}

TEST(Reorder, WorldFollowsTheGraphMapping) {
  World& world = gwtest::world();
  if (world.size() < 2) GTEST_SKIP() << "one rank: nothing to reorder";
  const topo::Graph graph = ring(world.size());
  const topo::Assignment rank_of = topo::map_graph(world, graph);
  ASSERT_TRUE(topo::is_permutation(rank_of, world.size()));
  topo::Assignment first = rank_of;
  MPI_Bcast(first.data(), static_cast<int>(first.size()), MPI_INT, 0, world.comm());
  EXPECT_EQ(first, rank_of);

  std::unique_ptr<World> reordered = topo::reordered(world, graph);
  ASSERT_EQ(reordered->size(), world.size());
  EXPECT_EQ(rank_of[static_cast<std::size_t>(reordered->rank())], world.rank());

  topo::Assignment identity(rank_of.size());
  for (std::size_t v = 0; v < identity.size(); ++v) identity[v] = static_cast<int>(v);
  const std::int64_t before = weight_between_nodes(world, graph, identity), after = weight_between_nodes(world, graph, rank_of);
  EXPECT_LE(after, before) << "rank order " << before << ", mapped " << after;
  const char* moves = std::getenv("GHOSTWIRE_TEST_PLACEMENT_MOVES");
  if (moves && std::string(moves) == "1") {
    EXPECT_LT(after, before) << "rank order " << before << ", mapped " << after;
  }
}

TEST(Reorder, BadAssignmentsAreRefused) {
  World& world = gwtest::world();
  EXPECT_THROW(topo::reordered_comm(world.comm(), topo::Assignment(static_cast<std::size_t>(world.size()) + 1, 0)), Error);
  EXPECT_THROW(topo::map_graph(world, ring(world.size() + 1)), Error);
}

}  // namespace
