// SPDX-License-Identifier: BSD-3-Clause
// One message per pair of nodes (Plan::aggregate, GHOSTWIRE_AGGREGATE): every rank sends every
// rank a message of its own length on two channels (channel 1 strided, so parts are packed from
// sparse data), on nodes of 1, 2 and 3 ranks (3 leaves a smaller last node) besides the launch's
// own. Each value names its iteration, sender, receiver and index, so a part misplaced in the
// combined message, a stale half or a message taken twice shows. The plan is driven every way:
// exchange(), start()/finish(), exchange(channel), slot by slot, test_finish(). describe() and
// traffic() say one message per pair of nodes and channel; Aggregation::off and auto's limits
// (separate machines, 4 messages per pair of nodes, 8 KiB) keep messages apart.
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

constexpr std::size_t channels = 2;
constexpr std::ptrdiff_t stride = 2;  // channel 1 sends every other element

// Elements rank `from` sends rank `to` on `channel`: different for every pair, times `scale`.
std::size_t length(int from, int to, std::size_t channel, std::size_t scale) {
  return scale * (1 + static_cast<std::size_t>(from * 7 + to * 3 + static_cast<int>(channel) * 5) % 13);
}

double value(int iteration, int from, int to, std::size_t channel, std::size_t index) {
  return iteration * 1e9 + from * 1e7 + to * 1e5 + static_cast<double>(channel) * 1e4 + static_cast<double>(index);
}

World world_of(int ranks_per_node, Aggregation mode) {
  Settings settings = Settings::from_environment();
  if (ranks_per_node >= 0) settings.ranks_per_node = ranks_per_node;
  settings.aggregation = mode;
  return World(gwtest::world().comm(), settings);
}

// Every rank a neighbour (itself too); each (channel, neighbour) its own stretch of the sent block
// and of the ghosts, in private memory or a Segment.
struct AllToAll {
  World& w;
  std::size_t scale;
  std::vector<int> ranks;
  std::vector<std::size_t> send_at, receive_at;  // by (neighbour, channel), in elements
  std::size_t send_total = 0, receive_total = 0;
  std::vector<double> block, ghosts;
  Plan plan;

  AllToAll(World& world, std::size_t scale_, bool aggregate_call = false, Aggregation mode = Aggregation::node)
      : w(world), scale(scale_), ranks(all_ranks(world)), plan(world, ranks, channels) {
    const int me = w.rank();
    for (int q : ranks)
      for (std::size_t c = 0; c < channels; ++c) {
        send_at.push_back(send_total);
        send_total += length(me, q, c, scale) * (c == 1 ? stride : 1);
        receive_at.push_back(receive_total);
        receive_total += length(q, me, c, scale);
      }
    block.assign(send_total, -1);
    ghosts.assign(receive_total, -1);
    const Region b = plan.add_memory(block.data(), block.size() * sizeof(double), sizeof(double));
    const Region g = plan.add_memory(ghosts.data(), ghosts.size() * sizeof(double), sizeof(double));
    for (std::size_t n = 0; n < ranks.size(); ++n)
      for (std::size_t c = 0; c < channels; ++c) {
        const std::size_t k = n * channels + c, count = length(me, ranks[n], c, scale);
        if (c == 1)
          plan.add_send(c, ranks[n], b, Layout::box(send_at[k], {count}, {stride}));
        else
          plan.add_send(c, ranks[n], b, Layout::contiguous(send_at[k], count));
        plan.add_receive(c, ranks[n], g, Layout::contiguous(receive_at[k], length(ranks[n], me, c, scale)));
      }
    if (aggregate_call) plan.aggregate(mode);
    plan.commit();
  }

  static std::vector<int> all_ranks(const World& w) {
    std::vector<int> list(static_cast<std::size_t>(w.size()));
    for (int r = 0; r < w.size(); ++r) list[static_cast<std::size_t>(r)] = r;
    return list;
  }

  void fill(int iteration) {
    std::fill(block.begin(), block.end(), -2.0);
    for (std::size_t n = 0; n < ranks.size(); ++n)
      for (std::size_t c = 0; c < channels; ++c) {
        const std::size_t k = n * channels + c, step = c == 1 ? stride : 1;
        for (std::size_t i = 0; i < length(w.rank(), ranks[n], c, scale); ++i)
          block[send_at[k] + i * step] = value(iteration, w.rank(), ranks[n], c, i);
      }
    std::fill(ghosts.begin(), ghosts.end(), -1.0);
  }

  // Every ghost of every slot (or of one channel) holds what its sender sent in `iteration`.
  void check(int iteration, int only_channel = -1) const {
    std::size_t wrong = 0;
    std::string first;
    for (std::size_t n = 0; n < ranks.size(); ++n)
      for (std::size_t c = 0; c < channels; ++c) {
        if (only_channel >= 0 && c != static_cast<std::size_t>(only_channel)) continue;
        const std::size_t k = n * channels + c;
        for (std::size_t i = 0; i < length(ranks[n], w.rank(), c, scale); ++i) {
          const double expected = value(iteration, ranks[n], w.rank(), c, i), got = ghosts[receive_at[k] + i];
          if (got == expected) continue;
          if (wrong++ == 0)
            first = "channel " + std::to_string(c) + " from rank " + std::to_string(ranks[n]) + " element " +
                    std::to_string(i) + ": " + std::to_string(got) + " instead of " + std::to_string(expected);
        }
      }
    EXPECT_EQ(wrong, 0u) << "iteration " << iteration << " on rank " << w.rank() << ": " << wrong
                         << " wrong ghost values, first " << first << "\n"
                         << plan.describe();
  }

  // Iteration `it` run the way `it % 5` picks.
  void run(int it) {
    fill(it);
    switch (it % 5) {
      case 0: plan.exchange(); break;
      case 1: plan.start(); plan.finish(); break;
      case 2:
        plan.exchange(1);
        check(it, 1);
        plan.exchange(0);
        break;
      case 3:
        for (int q : ranks)
          for (std::size_t c = 0; c < channels; ++c) plan.send(c, q);
        for (int q : ranks)
          for (std::size_t c = 0; c < channels; ++c) plan.wait_recv(c, q);
        for (int q : ranks)
          for (std::size_t c = 0; c < channels; ++c) plan.wait_send(c, q);
        break;
      default:
        plan.start();
        while (!plan.test_finish()) {
        }
    }
    check(it);
  }
};

std::size_t nodes_of(const World& w) { return static_cast<std::size_t>(w.node_count()); }

std::size_t summed_inter_node_messages(const World& w, const Plan& plan) {
  unsigned long mine = plan.traffic().inter_node_messages, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG, MPI_SUM, w.comm());
  return all;
}

bool describes_aggregated(const Plan& plan) {
  return plan.describe().find("aggregated") != std::string::npos;
}

// The node sizes to try: the launch's own (-1), then 1, 2 and 3 ranks per node where they make
// more than one node.
std::vector<int> node_sizes() {
  std::vector<int> sizes{-1};
  for (int k = 1; k <= 3; ++k)
    if (k < gwtest::world().size()) sizes.push_back(k);
  return sizes;
}

}  // namespace

TEST(PlanAggregate, EveryWayOfRunningOnEveryNodeSize) {
  for (const int rpn : node_sizes())
    for (const std::size_t scale : {std::size_t{1}, std::size_t{300}}) {  // 8 B to 100 KB parts
      World w = world_of(rpn, Aggregation::node);
      AllToAll a(w, scale);
      const bool several_nodes = w.node_count() > 1;
      EXPECT_EQ(describes_aggregated(a.plan), several_nodes) << a.plan.describe();
      if (several_nodes) {
        // One message per ordered pair of nodes and channel, summed over the ranks.
        EXPECT_EQ(summed_inter_node_messages(w, a.plan), nodes_of(w) * (nodes_of(w) - 1) * channels)
            << a.plan.describe();
      }
      for (int it = 1; it <= 12; ++it) a.run(it);
    }
}

TEST(PlanAggregate, OffKeepsEachMessage) {
  World w = world_of(-1, Aggregation::node);
  AllToAll a(w, 1, true, Aggregation::off);
  EXPECT_FALSE(describes_aggregated(a.plan)) << a.plan.describe();
  if (w.node_count() > 1) {
    EXPECT_NE(a.plan.describe().find("Plan::aggregate: off"), std::string::npos) << a.plan.describe();
    std::size_t expected = 0;  // every message to another node, each channel
    for (int q = 0; q < w.size(); ++q)
      if (!w.shares_memory_with(q)) expected += channels;
    EXPECT_EQ(a.plan.traffic().inter_node_messages, expected) << a.plan.describe();
  }
  for (int it = 1; it <= 5; ++it) a.run(it);
}

TEST(PlanAggregate, AutoCombinesOnlySmallMessages) {
  World w = world_of(-1, Aggregation::automatic);
  AllToAll small(w, 1);
  AllToAll large(w, 200);  // parts up to 13 x 200 x 8 bytes, above auto's limit
  // Auto combines between machines (not emulated nodes), where some pair of nodes carries 4 messages
  // or more: a channel between two nodes carries one per pair of their ranks.
  int most = 0;
  for (int a = 0; a < w.size(); ++a)
    for (int b = 0; b < w.size(); ++b)
      if (w.node_of(a) != w.node_of(b)) {
        int parts = 0;
        for (int x = 0; x < w.size(); ++x)
          for (int y = 0; y < w.size(); ++y) parts += w.node_of(x) == w.node_of(a) && w.node_of(y) == w.node_of(b);
        most = std::max(most, parts);
      }
  MPI_Comm machine;
  MPI_Comm_split_type(w.comm(), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &machine);
  int machine_size = 0;
  MPI_Comm_size(machine, &machine_size);
  MPI_Comm_free(&machine);
  const bool combines = machine_size < w.size() && most >= 4;
  EXPECT_EQ(describes_aggregated(small.plan), combines) << small.plan.describe();
  if (w.node_count() > 1) {
    EXPECT_NE(small.plan.describe().find("GHOSTWIRE_AGGREGATE=auto"), std::string::npos) << small.plan.describe();
  }
  EXPECT_FALSE(describes_aggregated(large.plan)) << large.plan.describe();
  for (int it = 1; it <= 5; ++it) {
    small.run(it);
    large.run(it);
  }
}

// make_unstructured_plan's mode argument overrides the World's setting, both ways: every rank
// takes every element of every rank, ranks and elements in reverse order, each value naming both.
TEST(PlanAggregate, UnstructuredPlanTakesTheMode) {
  for (const auto& [setting, argument] : {std::pair{Aggregation::off, Aggregation::node},
                                         std::pair{Aggregation::node, Aggregation::off}}) {
    World w = world_of(-1, setting);
    constexpr std::size_t owned_count = 5;
    Segment owned(w, owned_count * sizeof(double));
    GhostMap map;
    for (int q = w.size() - 1; q >= 0; --q)
      for (std::size_t k = owned_count; k-- > 0;) {
        map.owner.push_back(q);
        map.index.push_back(k);
      }
    std::vector<double> ghosts(map.owner.size(), -1.0);
    Plan plan = make_unstructured_plan(w, owned, 0, owned_count, ghosts.data(), map, sizeof(double), argument);
    EXPECT_EQ(describes_aggregated(plan), argument == Aggregation::node && w.node_count() > 1) << plan.describe();
    auto* mine = reinterpret_cast<double*>(owned.data());
    for (int it = 1; it <= 4; ++it) {
      for (std::size_t k = 0; k < owned_count; ++k) mine[k] = value(it, w.rank(), 0, 0, k);
      plan.exchange();
      for (std::size_t g = 0; g < ghosts.size(); ++g)
        ASSERT_EQ(ghosts[g], value(it, map.owner[g], 0, 0, map.index[g])) << "ghost entry " << g << ", iteration " << it;
    }
  }
}

TEST(PlanAggregate, RanksMustAgree) {
  World w = world_of(-1, Aggregation::node);
  if (w.size() < 2) GTEST_SKIP() << "needs two ranks";
  Plan plan(w, std::vector<int>{w.rank()}, 1);
  std::vector<double> data(2);
  const Region r = plan.add_memory(data.data(), sizeof data[0] * data.size(), sizeof data[0]);
  plan.add_send(0, w.rank(), r, Layout::contiguous(0, 1));
  plan.add_receive(0, w.rank(), r, Layout::contiguous(1, 1));
  plan.aggregate(w.rank() == 0 ? Aggregation::off : Aggregation::node);
  GW_EXPECT_ERROR(plan.commit(), Errc::mismatch, "ranks disagree on whether to combine messages between nodes");
}

TEST(PlanAggregate, RefusedAfterCommit) {
  World w = world_of(-1, Aggregation::node);
  Plan plan(w, std::vector<int>{w.rank()}, 1);
  plan.commit();
  GW_EXPECT_ERROR(plan.aggregate(Aggregation::off), Errc::state, "Plan::aggregate", "already committed");
}

// The modes' names: one list for GHOSTWIRE_AGGREGATE, describe() and the bindings.
TEST(PlanAggregate, ModeNames) {
  for (Aggregation mode : {Aggregation::automatic, Aggregation::node, Aggregation::off})
    EXPECT_EQ(aggregation_from_name(aggregation_name(mode)), mode) << aggregation_name(mode);
  EXPECT_STREQ(aggregation_name(Aggregation::automatic), "auto");
  EXPECT_STREQ(aggregation_name(Aggregation::node), "node");
  EXPECT_STREQ(aggregation_name(Aggregation::off), "off");
  for (const char* wrong : {"", "on", "Node", "automatic", "off "}) EXPECT_FALSE(aggregation_from_name(wrong)) << wrong;
  const char* launch = std::getenv("GHOSTWIRE_AGGREGATE");
  const std::string saved = launch ? launch : "";
  setenv("GHOSTWIRE_AGGREGATE", "sometimes", 1);
  GW_EXPECT_ERROR(Settings::from_environment(), Errc::invalid_argument,
                  "GHOSTWIRE_AGGREGATE='sometimes': expected auto, node or off");
  if (launch) setenv("GHOSTWIRE_AGGREGATE", saved.c_str(), 1);
  else unsetenv("GHOSTWIRE_AGGREGATE");
}
