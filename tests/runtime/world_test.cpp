// SPDX-License-Identifier: BSD-3-Clause
#include <mpi.h>
#include <sched.h>

#include <cstdlib>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ghostwire/dist/grid.hpp"
#include "ghostwire/error.hpp"
#include "ghostwire/segment.hpp"
#include "ghostwire/settings.hpp"
#include "ghostwire/world.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

// The library's internals are not public API: no class hands its state out (issue 31). A public
// state() returning would fail this file's compilation.
template <class T>
concept HandsOutState = requires(T& object) { object.state(); };
static_assert(!HandsOutState<World> && !HandsOutState<const World>);
static_assert(!HandsOutState<Segment> && !HandsOutState<const Segment>);
static_assert(!HandsOutState<GridBase> && !HandsOutState<Grid<double, 2>>);

TEST(World, RankAndSizeMatchMpi) {
  World& w = gwtest::world();
  int rank = -1, size = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(w.rank(), rank);
  EXPECT_EQ(w.size(), size);
}

TEST(World, NodeTablesAreConsistentOnEveryRank) {
  World& w = gwtest::world();
  // Everyone's view of everyone's node must agree with the owner's own view.
  std::vector<int> mine{w.node(), w.node_rank(), w.node_size(), w.node_count()};
  std::vector<int> all(4 * static_cast<std::size_t>(w.size()));
  MPI_Allgather(mine.data(), 4, MPI_INT, all.data(), 4, MPI_INT, MPI_COMM_WORLD);
  std::set<int> nodes;
  for (int r = 0; r < w.size(); ++r) {
    EXPECT_EQ(w.node_of(r), all[4 * r]) << "rank " << r;
    EXPECT_EQ(w.node_rank_of(r), all[4 * r + 1]) << "rank " << r;
    EXPECT_EQ(w.node_count(), all[4 * r + 3]);
    EXPECT_EQ(w.shares_memory_with(r), all[4 * r] == w.node());
    nodes.insert(all[4 * r]);
  }
  EXPECT_EQ(static_cast<int>(nodes.size()), w.node_count());
  EXPECT_EQ(static_cast<int>(w.node_ranks().size()), w.node_size());
  for (std::size_t i = 0; i < w.node_ranks().size(); ++i) {
    EXPECT_EQ(w.node_of(w.node_ranks()[i]), w.node());
    EXPECT_EQ(w.node_rank_of(w.node_ranks()[i]), static_cast<int>(i));
  }
  EXPECT_EQ(w.node_ranks()[static_cast<std::size_t>(w.node_rank())], w.rank());
}

TEST(World, NodesNumberedByLowestRank) {
  World& w = gwtest::world();
  int next = 0;
  for (int r = 0; r < w.size(); ++r) {
    if (w.node_rank_of(r) == 0) {
      EXPECT_EQ(w.node_of(r), next) << "rank " << r;
      ++next;
    }
  }
}

TEST(World, EmulatedNodesHaveConsecutiveRanks) {
  World& w = gwtest::world();
  int per_node = w.settings().ranks_per_node;
  if (per_node == 0) GTEST_SKIP() << "GHOSTWIRE_RANKS_PER_NODE not set";
  for (int r = 0; r < w.size(); ++r) EXPECT_EQ(w.node_of(r), r / per_node) << "rank " << r;
  EXPECT_EQ(w.node_count(), (w.size() + per_node - 1) / per_node);
}

TEST(World, SeesTheExpectedNumberOfNodes) {
  long expected = gwtest::option_integer("expect-nodes", -1);
  if (expected < 0) GTEST_SKIP() << "no --expect-nodes given";
  EXPECT_EQ(gwtest::world().node_count(), expected);
}

// The emulated hosts of the multihost path are separate nodes to MPI but one machine: the wait
// policy must count all their ranks against the cores, or oversubscribed waits spin.
TEST(World, CountsTheRanksOfTheMachineAcrossEmulatedHosts) {
  World& w = gwtest::world();
  EXPECT_GE(w.machine_ranks(), w.node_size());
  long expected = gwtest::option_integer("expect-machine-ranks", -1);
  if (expected < 0) GTEST_SKIP() << "no --expect-machine-ranks given";
  EXPECT_EQ(w.machine_ranks(), expected);
  // The machine's cores are the union of the ranks' masks (every rank of a test runs here): Open MPI
  // binds 2 ranks to one core each, and those 2 are not oversubscribed.
  cpu_set_t mine;
  ASSERT_EQ(sched_getaffinity(0, sizeof mine, &mine), 0);
  std::vector<cpu_set_t> masks(static_cast<std::size_t>(w.size()));
  MPI_Allgather(&mine, sizeof mine, MPI_BYTE, masks.data(), sizeof mine, MPI_BYTE, w.comm());
  cpu_set_t cores;
  CPU_ZERO(&cores);
  for (cpu_set_t& mask : masks) CPU_OR(&cores, &cores, &mask);
  EXPECT_EQ(w.oversubscribed(), expected > CPU_COUNT(&cores))
      << "ranks " << expected << ", cores in the union of their masks " << CPU_COUNT(&cores) << ", this rank's "
      << CPU_COUNT(&mine);
}

TEST(World, UnknownRankIsAnError) {
  World& w = gwtest::world();
  GW_EXPECT_ERROR(w.node_of(w.size()), Errc::out_of_range, "rank", "is not in [0,");
  GW_EXPECT_ERROR(w.node_of(-1), Errc::out_of_range, "-1");
}

TEST(World, BarrierCompletes) {
  for (int i = 0; i < 100; ++i) gwtest::world().barrier();
}

TEST(Settings, MalformedEnvironmentNamesTheVariable) {
  setenv("GHOSTWIRE_TRANSPORT", "carrier-pigeon", 1);
  GW_EXPECT_ERROR(Settings::from_environment(), Errc::invalid_argument, "GHOSTWIRE_TRANSPORT", "carrier-pigeon",
                  "rma or p2p");
  unsetenv("GHOSTWIRE_TRANSPORT");
  const char* saved = std::getenv("GHOSTWIRE_TIMEOUT");
  std::string keep = saved ? saved : "";
  setenv("GHOSTWIRE_TIMEOUT", "-3", 1);
  GW_EXPECT_ERROR(Settings::from_environment(), Errc::invalid_argument, "GHOSTWIRE_TIMEOUT", "positive");
  setenv("GHOSTWIRE_TIMEOUT", "5", 1);
  EXPECT_DOUBLE_EQ(Settings::from_environment().timeout_seconds, 5.0);
  if (saved) setenv("GHOSTWIRE_TIMEOUT", keep.c_str(), 1); else unsetenv("GHOSTWIRE_TIMEOUT");
  const char* rpn = std::getenv("GHOSTWIRE_RANKS_PER_NODE");
  std::string keep_rpn = rpn ? rpn : "";
  setenv("GHOSTWIRE_RANKS_PER_NODE", "two", 1);
  GW_EXPECT_ERROR(Settings::from_environment(), Errc::invalid_argument, "GHOSTWIRE_RANKS_PER_NODE", "two");
  if (rpn) setenv("GHOSTWIRE_RANKS_PER_NODE", keep_rpn.c_str(), 1); else unsetenv("GHOSTWIRE_RANKS_PER_NODE");
}

// Every variable that names a choice: each choice read, and a wrong name refused with the variable,
// the value and every choice.
TEST(Settings, EveryChoiceVariable) {
  struct Variable {
    const char* name;
    const char* expected;
    std::vector<std::pair<const char*, std::function<bool(const Settings&)>>> choices;
  };
  const std::vector<Variable> variables{
      {"GHOSTWIRE_TRANSPORT", "expected rma or p2p",
       {{"rma", [](const Settings& s) { return s.transport == Transport::rma; }},
        {"p2p", [](const Settings& s) { return s.transport == Transport::p2p; }}}},
      {"GHOSTWIRE_ON_TIMEOUT", "expected abort or throw",
       {{"abort", [](const Settings& s) { return s.on_timeout == TimeoutAction::abort_job; }},
        {"throw", [](const Settings& s) { return s.on_timeout == TimeoutAction::throw_error; }}}},
      {"GHOSTWIRE_THREAD_LEVEL", "expected single, funneled, serialized or multiple",
       {{"single", [](const Settings& s) { return s.thread_level == ThreadLevel::single; }},
        {"funneled", [](const Settings& s) { return s.thread_level == ThreadLevel::funneled; }},
        {"serialized", [](const Settings& s) { return s.thread_level == ThreadLevel::serialized; }},
        {"multiple", [](const Settings& s) { return s.thread_level == ThreadLevel::multiple; }}}},
      {"GHOSTWIRE_PARTITIONS", "expected auto, separate or combined",
       {{"auto", [](const Settings& s) { return s.partition_messages == PartitionMessages::automatic; }},
        {"separate", [](const Settings& s) { return s.partition_messages == PartitionMessages::separate; }},
        {"combined", [](const Settings& s) { return s.partition_messages == PartitionMessages::combined; }}}},
  };
  for (const Variable& v : variables) {
    const char* saved = std::getenv(v.name);
    const std::string keep = saved ? saved : "";
    for (const auto& [text, holds] : v.choices) {
      setenv(v.name, text, 1);
      EXPECT_TRUE(holds(Settings::from_environment())) << v.name << "=" << text;
    }
    setenv(v.name, "Multiple", 1);  // names are case-sensitive
    GW_EXPECT_ERROR(Settings::from_environment(), Errc::invalid_argument, v.name, "'Multiple'", v.expected);
    if (saved) setenv(v.name, keep.c_str(), 1); else unsetenv(v.name);
  }
}

TEST(Settings, IntraPathChoice) {
  setenv("GHOSTWIRE_INTRA_PATH", "Side ways", 1);
  GW_EXPECT_ERROR(Settings::from_environment(), Errc::invalid_argument, "GHOSTWIRE_INTRA_PATH", "Side ways",
                  "auto, in-place, staged, pushed or the name of a registered path");
  // Any other word names a path a program registers; a plan's commit checks it.
  setenv("GHOSTWIRE_INTRA_PATH", "sideways", 1);
  EXPECT_EQ(Settings::from_environment().intra_path, IntraPath::named);
  EXPECT_EQ(Settings::from_environment().intra_path_name, "sideways");
  setenv("GHOSTWIRE_INTRA_PATH", "staged", 1);
  EXPECT_EQ(Settings::from_environment().intra_path, IntraPath::staged);
  setenv("GHOSTWIRE_INTRA_PATH", "pushed", 1);
  EXPECT_EQ(Settings::from_environment().intra_path, IntraPath::pushed);
  unsetenv("GHOSTWIRE_INTRA_PATH");
  EXPECT_EQ(Settings::from_environment().intra_path, IntraPath::automatic);
}
