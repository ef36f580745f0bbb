// SPDX-License-Identifier: BSD-3-Clause
// The tests' own path (bounce_path.cpp) as a plug-in: with GHOSTWIRE_INTRA_PATH=bounce every slot
// between node peers takes it (describe() names it, its receives are counted, every ghost holds its
// owner's value round after round); without, the automatic choice never takes it. A name no path
// has is refused at commit on every rank. The rest of halo_tests runs on it under the same setting.
#include <algorithm>
#include <string>
#include <vector>

#include "bounce_path.hpp"
#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "ghostwire/segment.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

constexpr std::size_t block = 37;  // owned values per rank; a ghost block from each side

bool bounce_forced(const World& w) {
  return w.settings().intra_path == IntraPath::named && w.settings().intra_path_name == "bounce";
}

double value(int rank, std::size_t i, int round) { return rank * 1000.0 + static_cast<double>(i) + round * 0.25; }

// A ring in one Segment: [ghosts from the left | owned | ghosts from the right]; channel 0 carries
// the owned block to the right neighbour, channel 1 to the left one (the same rank when n <= 2).
struct Ring {
  World& w;
  int left, right;
  Segment memory;
  Plan plan;
  explicit Ring(World& world)
      : w(world),
        left((world.rank() + world.size() - 1) % world.size()),
        right((world.rank() + 1) % world.size()),
        memory(world, 3 * block * sizeof(double)),
        plan(world, neighbours(), 2) {
    Region field = plan.add_memory(memory, sizeof(double));
    plan.add_send(0, right, field, Layout::contiguous(block, block))
        .add_receive(0, left, field, Layout::contiguous(0, block))
        .add_send(1, left, field, Layout::contiguous(block, block))
        .add_receive(1, right, field, Layout::contiguous(2 * block, block));
    plan.commit();
  }
  std::vector<int> neighbours() const {
    std::vector<int> ranks{left};
    if (right != left) ranks.push_back(right);
    return ranks;
  }
  double* data() { return reinterpret_cast<double*>(memory.data()); }
};

TEST(PluginPath, ForcedPathCarriesEveryNodePeerSlot) {
  World& w = gwtest::world();
  Ring ring(w);
  const std::string text = ring.plan.describe();
  for (int r : ring.neighbours())
    for (const char* direction : {"send    channel ", "receive channel "})
      for (int channel : {0, 1}) {
        const std::string needle = direction + std::to_string(channel) + " with rank " + std::to_string(r) + ":";
        const std::size_t at = text.find(needle);
        if (at == std::string::npos) continue;  // (n = 2: channel 0 goes to one side only)
        const std::string line = text.substr(at, text.find('\n', at) - at);
        const bool expected = bounce_forced(w) && w.shares_memory_with(r);
        EXPECT_EQ(line.find(gwtest::bounce_description) != std::string::npos, expected) << text;
      }
  const std::uint64_t before = gwtest::bounce_messages.load();
  const int rounds = 50;
  for (int round = 1; round <= rounds; ++round) {
    for (std::size_t i = 0; i < block; ++i) ring.data()[block + i] = value(w.rank(), i, round);
    if (round % 2) {
      ring.plan.exchange();
    } else {
      ring.plan.start();
      ring.plan.finish();
    }
    for (std::size_t i = 0; i < block; ++i) {
      ASSERT_EQ(ring.data()[i], value(ring.left, i, round)) << "round " << round << " ghost " << i << " from the left";
      ASSERT_EQ(ring.data()[2 * block + i], value(ring.right, i, round))
          << "round " << round << " ghost " << i << " from the right";
    }
  }
  const std::uint64_t node_peer_receives =
      static_cast<std::uint64_t>(w.shares_memory_with(ring.left)) + static_cast<std::uint64_t>(w.shares_memory_with(ring.right));
  EXPECT_EQ(gwtest::bounce_messages.load() - before, bounce_forced(w) ? rounds * node_peer_receives : 0u);
  w.barrier();
}

TEST(PluginPath, ANameNoPathHasIsRefusedAtCommit) {
  Settings settings = gwtest::world().settings();
  settings.intra_path = IntraPath::named;
  settings.intra_path_name = "sideways";
  World w(gwtest::world().comm(), settings);
  GW_EXPECT_ERROR(Ring ring(w), Errc::invalid_argument, "GHOSTWIRE_INTRA_PATH='sideways' names no message path",
                  "bounce");
  settings.intra_path_name = "two-sided";
  World between(gwtest::world().comm(), settings);
  GW_EXPECT_ERROR(Ring ring(between), Errc::invalid_argument, "names a path between nodes");
}

}  // namespace
