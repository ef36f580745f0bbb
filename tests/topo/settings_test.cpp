// SPDX-License-Identifier: BSD-3-Clause
// A World built with explicit Settings detects and places exactly as a World built under the same
// GHOSTWIRE_* variables (docs/topology.md, "Settings"; issue 31): the hierarchy (topo::detect), the
// automatic and hierarchical placements of a team, topology_known and the graph reordering are
// compared between a World made with GHOSTWIRE_RANKS_PER_NODE and GHOSTWIRE_TOPOLOGY set, one made
// with the variables unset and the same values in Settings, and topo::detect on a bare
// communicator with those Settings. A World with the variables unset and default Settings must see
// a different machine: otherwise the comparison would prove nothing. The launch passes the
// topology file: --topology-file=FILE (every host of the launch listed in it).
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "ghostwire/dist.hpp"
#include "ghostwire/topo.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

// Saves the variables this test changes and puts them back, so later tests see the launch's.
class SavedVariables {
 public:
  SavedVariables() {
    for (const char* name : names_)
      if (const char* value = std::getenv(name)) saved_.emplace_back(name, value);
  }
  ~SavedVariables() {
    for (const char* name : names_) unsetenv(name);
    for (const auto& [name, value] : saved_) setenv(name.c_str(), value.c_str(), 1);
  }

 private:
  static constexpr const char* names_[] = {"GHOSTWIRE_RANKS_PER_NODE", "GHOSTWIRE_TOPOLOGY"};
  std::vector<std::pair<std::string, std::string>> saved_;
};

// What a World makes of the machine.
struct Observed {
  topo::Topology topology;
  int node_count = 0;
  bool topology_known = false;
  std::vector<int> automatic, hierarchical_ring;
  topo::Assignment graph_mapping;
};

std::vector<int> rank_of(const TeamSpec<3>& team) {
  const TeamSpec<3> positions(team.extents());
  std::vector<int> ranks;
  for (int p = 0; p < team.size(); ++p) ranks.push_back(team.rank(positions.coords(p)));
  return ranks;
}

// A ring of parts, heavy edges between consecutive ones.
topo::Graph ring(int n) {
  topo::Graph g;
  g.offsets.push_back(0);
  for (int v = 0; v < n; ++v) {
    for (int w : {(v + 1) % n, (v + n - 1) % n})
      if (w != v) {
        g.targets.push_back(w);
        g.weights.push_back(8192);
      }
    g.offsets.push_back(static_cast<int>(g.targets.size()));
  }
  return g;
}

Observed observe(World& world) {
  Observed seen;
  seen.topology = topo::detect(world);
  seen.node_count = world.node_count();
  seen.topology_known = detail::topology_known(world);
  const auto extents = TeamSpec<3>::balanced(world.size()).extents();
  seen.automatic = rank_of(TeamSpec<3>::placed(world, extents, Placement::automatic, {true, true, true}, {32, 32, 32}));
  seen.hierarchical_ring = rank_of(TeamSpec<3>::placed(world, {world.size(), 1, 1}, Placement::hierarchical));
  seen.graph_mapping = topo::map_graph(world, ring(world.size()));
  return seen;
}

void expect_same_topology(const topo::Topology& expected, const topo::Topology& actual, const char* what) {
  EXPECT_EQ(actual.levels(), expected.levels()) << what;
  EXPECT_EQ(actual.node_level(), expected.node_level()) << what;
  ASSERT_EQ(actual.ranks(), expected.ranks()) << what;
  for (int r = 0; r < expected.ranks(); ++r) {
    EXPECT_EQ(actual.path(r), expected.path(r)) << what << ", rank " << r;
    EXPECT_EQ(actual.host(r), expected.host(r)) << what << ", rank " << r;
  }
}

TEST(ExplicitSettings, DetectAndPlaceAsTheEnvironmentDoes) {
  const std::string file = gwtest::option("topology-file");
  ASSERT_FALSE(file.empty()) << "launch with --topology-file=FILE";
  const int size = gwtest::world().size();
  const int ranks_per_node = size > 1 ? size / 2 : 1;  // two emulated nodes per host when possible
  const SavedVariables saved;

  setenv("GHOSTWIRE_RANKS_PER_NODE", std::to_string(ranks_per_node).c_str(), 1);
  setenv("GHOSTWIRE_TOPOLOGY", file.c_str(), 1);
  std::optional<Observed> under_variables;
  {
    World world(MPI_COMM_WORLD);
    under_variables = observe(world);
  }

  unsetenv("GHOSTWIRE_RANKS_PER_NODE");
  unsetenv("GHOSTWIRE_TOPOLOGY");
  Settings settings = Settings::from_environment();
  ASSERT_EQ(settings.ranks_per_node, 0);
  ASSERT_TRUE(settings.topology_file.empty());
  settings.ranks_per_node = ranks_per_node;
  settings.topology_file = file;
  std::optional<Observed> with_settings;
  {
    World world(MPI_COMM_WORLD, settings);
    with_settings = observe(world);
  }
  const topo::Topology bare = topo::detect(MPI_COMM_WORLD, settings);
  std::optional<Observed> without_either;
  {
    World world(MPI_COMM_WORLD);
    without_either = observe(world);
  }

  expect_same_topology(under_variables->topology, with_settings->topology, "World(comm, settings)");
  expect_same_topology(under_variables->topology, bare, "detect(comm, settings)");
  EXPECT_EQ(with_settings->node_count, under_variables->node_count);
  EXPECT_EQ(with_settings->topology_known, under_variables->topology_known);
  EXPECT_TRUE(with_settings->topology_known);
  EXPECT_EQ(with_settings->automatic, under_variables->automatic);
  EXPECT_EQ(with_settings->hierarchical_ring, under_variables->hierarchical_ring);
  EXPECT_EQ(with_settings->graph_mapping, under_variables->graph_mapping);
  // The file's network levels (group ... node) and the emulated hosts' level are what the settings
  // add; without them only host names are known.
  EXPECT_NE(without_either->topology.levels(), under_variables->topology.levels());
  EXPECT_EQ(under_variables->topology.level_index("host"), under_variables->topology.node_level() - 1);
  EXPECT_EQ(without_either->topology.level_index("host"), -1);
}

}  // namespace
