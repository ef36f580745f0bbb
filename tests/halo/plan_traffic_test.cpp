// SPDX-License-Identifier: BSD-3-Clause
// Plan::traffic(): what one exchange sends from this rank, to other nodes and to node peers, counted
// against the plan's own description on emulated nodes of two ranks: a message split in two parts
// (rows in place, a column staged) counts once, partitions combined into one message between nodes
// count once, partitions between node peers one each. describe() prints the same counts.
#include <string>
#include <vector>

#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

constexpr std::size_t side = 16;  // a side x side block of doubles

// Whatever the launch's environment: nodes of two ranks, the automatic choice between node peers
// (which splits channel 0's message), partitions combined between nodes.
World nodes_of_two() {
  Settings settings = Settings::from_environment();
  settings.ranks_per_node = 2;
  settings.intra_path = IntraPath::automatic;
  settings.partition_messages = PartitionMessages::combined;
  return World(gwtest::world().comm(), settings);
}

// On a ring, channel 0 to each neighbour: a row and a column (two parts between node peers, one
// packed message between nodes); channel 1 to each neighbour: a row in `partitions` partitions.
struct RingPlan {
  static constexpr std::size_t partitions = 4;
  World w;
  std::vector<int> neighbours;
  Segment block, ghosts;
  Plan plan;

  RingPlan()
      : w(nodes_of_two()),
        neighbours(ring_neighbours(w)),
        block(w, side * side * sizeof(double)),
        ghosts(w, 4 * side * sizeof(double) * 2),
        plan(w, neighbours, 2) {
    const Region b = plan.add_memory(block, sizeof(double)), g = plan.add_memory(ghosts, sizeof(double));
    for (std::size_t k = 0; k < neighbours.size(); ++k) {
      const int n = neighbours[k];
      plan.add_send(0, n, b, Layout::contiguous(side, side));
      plan.add_send(0, n, b, Layout::box(2, {side}, {static_cast<std::ptrdiff_t>(side)}));
      plan.add_send(1, n, b, Layout::contiguous(3 * side, side));
      plan.partition_send(1, n, partitions);
      plan.add_receive(0, n, g, Layout::contiguous(k * 4 * side, 2 * side));
      plan.add_receive(1, n, g, Layout::contiguous(k * 4 * side + 2 * side, side));
      plan.partition_receive(1, n, partitions);
    }
    plan.commit();
  }

  static std::vector<int> ring_neighbours(const World& w) {
    const int right = (w.rank() + 1) % w.size(), left = (w.rank() + w.size() - 1) % w.size();
    std::vector<int> list{right};
    if (left != right) list.push_back(left);
    return list;
  }
};

}  // namespace

TEST(PlanTraffic, CountsMessagesAndBytesByWhereTheyGo) {
  RingPlan ring;
  PlanTraffic expected;
  for (const int n : ring.neighbours) {
    const std::size_t bytes = 3 * side * sizeof(double);  // a row and a column, then a row
    if (ring.w.shares_memory_with(n)) {
      expected.node_peer_messages += 1 + RingPlan::partitions;  // the split message once, each partition
      expected.node_peer_bytes += bytes;
    } else {
      expected.inter_node_messages += 2;  // channel 0 packed; channel 1's partitions in one message
      expected.inter_node_bytes += bytes;
    }
  }
  const PlanTraffic t = ring.plan.traffic();
  const std::string text = ring.plan.describe();
  EXPECT_EQ(t.inter_node_messages, expected.inter_node_messages) << text;
  EXPECT_EQ(t.inter_node_bytes, expected.inter_node_bytes) << text;
  EXPECT_EQ(t.node_peer_messages, expected.node_peer_messages) << text;
  EXPECT_EQ(t.node_peer_bytes, expected.node_peer_bytes) << text;
  const std::string line = "per exchange from this rank: " + std::to_string(expected.inter_node_messages) +
                           " message(s), " + std::to_string(expected.inter_node_bytes) + " bytes to other nodes; " +
                           std::to_string(expected.node_peer_messages) + " message(s), " +
                           std::to_string(expected.node_peer_bytes) + " bytes to node peers";
  EXPECT_NE(text.find(line), std::string::npos) << text;
  ring.plan.exchange();  // the plan runs as described
}

TEST(PlanTraffic, RefusedBeforeCommit) {
  World& w = gwtest::world();
  Plan plan(w, std::vector<int>{w.rank()}, 1);
  try {
    (void)plan.traffic();
    FAIL() << "traffic() before commit() was not refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), Errc::state);
    EXPECT_NE(std::string(e.what()).find("Plan::traffic"), std::string::npos) << e.what();
  }
}
