// SPDX-License-Identifier: BSD-3-Clause
// Commit's visible choices and refusals: the notified-write fallback when a plan's tags would pass
// the tag limit is named by describe() and still delivers every value; a message too large for
// one MPI message between nodes is refused at commit with the reason, on every rank.
#include <sys/mman.h>

#include <climits>
#include <vector>

#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

// Every rank its own node, whatever the launch: every slot between ranks is inter-node.
World separate_nodes(long tag_limit) {
  Settings settings = Settings::from_environment();
  settings.ranks_per_node = 1;
  settings.message_tag_limit = tag_limit;
  return World(gwtest::world().comm(), settings);
}

// `channels` slots to the right neighbour and from the left on a ring; element c of message k on
// channel c is a value no other (rank, channel, round) has.
void ring_exchanges(World& w, std::size_t channels, const char* expected_path, const char* reason) {
  const int right = (w.rank() + 1) % w.size(), left = (w.rank() + w.size() - 1) % w.size();
  Segment out(w, channels * sizeof(double)), in(w, channels * sizeof(double));
  std::vector<int> neighbours{right};
  if (left != right) neighbours.push_back(left);
  Plan plan(w, neighbours, channels);
  const Region o = plan.add_memory(out, sizeof(double)), i = plan.add_memory(in, sizeof(double));
  for (std::size_t c = 0; c < channels; ++c) {
    plan.add_send(c, right, o, Layout::contiguous(c, 1));
    plan.add_receive(c, left, i, Layout::contiguous(c, 1));
  }
  plan.commit();
  const std::string text = plan.describe();
  if (w.size() > 1) {
    EXPECT_NE(text.find(expected_path), std::string::npos) << text;
    EXPECT_NE(text.find(reason), std::string::npos) << text;
  }
  auto* sent = reinterpret_cast<double*>(out.data());
  auto* received = reinterpret_cast<double*>(in.data());
  for (int round = 1; round <= 20; ++round) {
    for (std::size_t c = 0; c < channels; ++c) sent[c] = 1e6 * round + 1000.0 * w.rank() + static_cast<double>(c);
    if (round % 2) {
      plan.exchange();
    } else {
      for (std::size_t c = 0; c < channels; ++c) plan.send(c, right);
      for (std::size_t c = 0; c < channels; ++c) plan.wait_recv(c, left);
      for (std::size_t c = 0; c < channels; ++c) plan.wait_send(c, right);
    }
    for (std::size_t c = 0; c < channels; ++c)
      ASSERT_EQ(received[c], 1e6 * round + 1000.0 * left + static_cast<double>(c)) << "round " << round << " channel " << c;
  }
}

}  // namespace

TEST(PlanCommit, TagLimitFallbackIsNamedAndDelivers) {
  if (gwtest::world().settings().transport != Transport::p2p) GTEST_SKIP() << "the fallback is the two-sided transport's";
  World w = separate_nodes(16);  // 8 channels x 2 neighbours x 3 tags pass 16
  ring_exchanges(w, 8, "inter-node, notified write", "above the tag limit GHOSTWIRE_TAG_LIMIT = 16");
}

TEST(PlanCommit, WithinTheTagLimitSlotsAreTwoSided) {
  if (gwtest::world().settings().transport != Transport::p2p) GTEST_SKIP() << "the fallback is the two-sided transport's";
  World w = separate_nodes(0);
  ring_exchanges(w, 8, "inter-node, two-sided message", "GHOSTWIRE_TRANSPORT=p2p");
}

TEST(PlanCommit, MessageOverIntMaxBetweenNodesIsRefused) {
  World w = separate_nodes(0);
  if (w.size() == 1 || w.settings().transport != Transport::p2p) GTEST_SKIP() << "needs a two-sided neighbour";
  const int right = (w.rank() + 1) % w.size(), left = (w.rank() + w.size() - 1) % w.size();
  // Address space only: commit refuses before a byte of it is touched.
  const std::size_t bytes = std::size_t{INT_MAX} + 1;
  void* memory = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(memory, MAP_FAILED);
  {
    std::vector<int> neighbours{right};
    if (left != right) neighbours.push_back(left);
    Plan plan(w, neighbours, 1);
    const Region region = plan.add_memory(memory, bytes, 1);
    plan.add_send(0, right, region, Layout::contiguous(0, bytes));
    plan.add_receive(0, left, region, Layout::contiguous(0, bytes));
    GW_EXPECT_ERROR(plan.commit(), Errc::invalid_argument, "INT_MAX", "2147483648 bytes", "channel 0 with rank");
  }
  munmap(memory, bytes);
}
