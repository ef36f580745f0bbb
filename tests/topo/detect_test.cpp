// SPDX-License-Identifier: BSD-3-Clause
// detect() on a real launch: every rank's path, nodes from host names (or emulated nodes), cores
// from hwloc. Launched on one host, on emulated nodes and on two hosts.
#include <mpi.h>

#include <set>

#include "ghostwire/topo.hpp"
#include "mpi_test_main.hpp"

namespace topo = ghostwire::topo;

TEST(Detect, EveryRankHasAPath) {
  const topo::Topology machine = topo::detect(gwtest::world().comm());
  const auto& world = gwtest::world();
  ASSERT_EQ(machine.ranks(), world.size());
  EXPECT_EQ(machine.levels()[static_cast<std::size_t>(machine.node_level())], "node");
  EXPECT_EQ(machine.levels().back(), "core");
  // The nodes are the World's nodes (host names, or GHOSTWIRE_RANKS_PER_NODE groups).
  EXPECT_EQ(machine.node_count(), world.node_count());
  for (int r = 0; r < world.size(); ++r)
    for (int s = 0; s < world.size(); ++s) EXPECT_EQ(machine.same_node(r, s), world.node_of(r) == world.node_of(s));
  const long hosts = gwtest::option_integer("expect-hosts", 0);
  if (hosts > 0) {
    std::set<std::string> names;
    for (int r = 0; r < machine.ranks(); ++r) names.insert(machine.host(r));
    EXPECT_EQ(static_cast<long>(names.size()), hosts);
  }
  if (world.rank() == 0) std::printf("%s", machine.describe().c_str());
}
