// SPDX-License-Identifier: BSD-3-Clause
// The cross-memory path: a node peer's private arrays (std::vector, no Segment) read by the kernel
// straight into the ghost cells. Forced (GHOSTWIRE_INTRA_PATH=cross-memory) every message to a node
// peer takes it where the kernel lets ranks read each other (every rank or none: commit probes, and
// describe() says why not); the automatic choice never takes it. Either way every ghost holds its
// owner's value after every exchange, with the owner changing its values between exchanges (a read
// before the owner posted, or after it changed them, fails).
#include <cstdio>
#include <string>
#include <vector>

#include "ghostwire/plan.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

const std::string cross_memory = "intra-node, cross-memory";

double value(int rank, std::size_t i, int round) { return rank * 1e6 + static_cast<double>(i) * 0.5 + round; }

// Each rank's owned block in the middle of a private array, ghosts from the left and right ranks on
// either side; `block` doubles a message, as every `stride`-th element (1: one run).
struct PrivateRing {
  World& w;
  int left, right;
  std::size_t block, stride;
  std::vector<double> data;
  Plan plan;
  PrivateRing(World& world, std::size_t count, std::size_t step)
      : w(world),
        left((world.rank() + world.size() - 1) % world.size()),
        right((world.rank() + 1) % world.size()),
        block(count),
        stride(step),
        data(3 * count * step, -1.0),
        plan(world, neighbours(), 2) {
    Region field = plan.add_memory(data.data(), data.size() * sizeof(double), sizeof(double));
    auto part = [&](std::size_t k) {
      const std::size_t extent[1] = {block};
      const std::ptrdiff_t step_of[1] = {static_cast<std::ptrdiff_t>(stride)};
      return Layout::box(k * block * stride, extent, step_of);
    };
    plan.add_send(0, right, field, part(1)).add_receive(0, left, field, part(0));
    plan.add_send(1, left, field, part(1)).add_receive(1, right, field, part(2));
    plan.commit();
  }
  std::vector<int> neighbours() const {
    std::vector<int> ranks{left};
    if (right != left) ranks.push_back(right);
    return ranks;
  }
  void run(int rounds) {
    for (int round = 1; round <= rounds; ++round) {
      for (std::size_t i = 0; i < block; ++i) data[(block + i) * stride] = value(w.rank(), i, round);
      if (round % 2) {
        plan.exchange();
      } else {
        plan.start();
        plan.finish();
      }
      for (std::size_t i = 0; i < block; ++i) {
        ASSERT_EQ(data[i * stride], value(left, i, round)) << "round " << round << ", ghost " << i << " from the left";
        ASSERT_EQ(data[(2 * block + i) * stride], value(right, i, round))
            << "round " << round << ", ghost " << i << " from the right";
      }
    }
  }
  // How many send lines to node peers other than this rank name the path, of how many.
  std::pair<int, int> node_peer_sends(const std::string& path) const {
    const std::string text = plan.describe();
    int named = 0, all = 0;
    for (int r : neighbours()) {
      if (r == w.rank() || !w.shares_memory_with(r)) continue;
      for (std::size_t at = text.find("send    channel "); at != std::string::npos;
           at = text.find("send    channel ", at + 1)) {
        const std::string line = text.substr(at, text.find('\n', at) - at);
        if (line.find("with rank " + std::to_string(r) + ":") == std::string::npos) continue;
        ++all;
        named += line.find(path) != std::string::npos;
      }
    }
    return {named, all};
  }
};

bool forced(const World& w) {
  return w.settings().intra_path == IntraPath::named && w.settings().intra_path_name == "cross-memory";
}

TEST(PlanCrossMemory, PrivateMessagesAreReadByTheKernelWhenForced) {
  World& w = gwtest::world();
  for (auto [count, stride] : {std::pair<std::size_t, std::size_t>{4096, 1}, {64, 1}, {500, 3}}) {
    PrivateRing ring(w, count, stride);  // 32 KiB in one run, 512 bytes, 4000 bytes in runs of 8
    const std::string text = ring.plan.describe();
    const auto [named, all] = ring.node_peer_sends(cross_memory);
    if (!forced(w)) {
      EXPECT_EQ(named, 0) << text;  // never by the automatic choice
    } else if (text.find("cross-memory attach (asked for by GHOSTWIRE_INTRA_PATH or Plan::intra_path) does not work here") !=
               std::string::npos) {
      EXPECT_EQ(named, 0) << text;
      if (w.rank() == 0) std::printf("cross-memory attach does not work here; the ring ran on other paths\n");
    } else {
      EXPECT_EQ(named, all) << text;
    }
    ring.run(20);
  }
  w.barrier();
}

}  // namespace
