// SPDX-License-Identifier: BSD-3-Clause
// Plans driven by several threads of a rank (docs/plans.md, "Threads" and "Partitions"): channels
// shared out among threads, partitions marked ready and tested by whichever thread owns them, an
// exchange shared by a team, a grid's halo update by a team. Every value a thread receives is
// checked as soon as its message (or partition) is in, and carries rank, channel, round and element,
// so a stale, lost, doubled or misplaced value shows. Run with --thread-level=multiple and
// --threads=T (the threads per rank; 2 by default).
#include <barrier>
#include <string>
#include <thread>
#include <vector>

#include "ghostwire/dist.hpp"
#include "ghostwire/plan.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

std::size_t threads() { return static_cast<std::size_t>(gwtest::option_integer("threads", 2)); }

bool multiple() { return gwtest::world().thread_level() == ThreadLevel::multiple; }

// Runs body(t) on `count` threads and rethrows the first failure (gtest assertions in the threads
// are recorded by gtest itself).
template <class Body>
void on_threads(std::size_t count, Body&& body) {
  std::vector<std::thread> team;
  std::vector<std::exception_ptr> errors(count);
  for (std::size_t t = 0; t < count; ++t)
    team.emplace_back([&, t] {
      try {
        body(t);
      } catch (...) {
        errors[t] = std::current_exception();
      }
    });
  for (std::thread& thread : team) thread.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

// A ring: every rank sends to the right and receives from the left on `channels` channels. Even
// channels carry a dense run (read in place between node peers), odd ones every third element
// (staged or pushed): both kinds of intra-node path, and messages between nodes where there are.
struct Ring {
  static constexpr std::size_t elements = 96;  // per channel
  World& w;
  std::size_t channels;
  int right, left;
  Segment block, ghosts;
  Plan plan;

  Ring(World& world, std::size_t channel_count, const std::vector<std::size_t>& partitions = {})
      : w(world),
        channels(channel_count),
        right((world.rank() + 1) % world.size()),
        left((world.rank() + world.size() - 1) % world.size()),
        block(world, channel_count * 3 * elements * sizeof(double)),
        ghosts(world, channel_count * elements * sizeof(double)),
        plan(make(partitions)) {}

  Plan make(const std::vector<std::size_t>& partitions) {
    std::vector<int> neighbours{right};
    if (left != right) neighbours.push_back(left);
    Plan p(w, neighbours, channels);
    const Region b = p.add_memory(block, sizeof(double)), g = p.add_memory(ghosts, sizeof(double));
    for (std::size_t c = 0; c < channels; ++c) {
      const std::size_t base = c * 3 * elements;
      if (c % 2 == 0)
        p.add_send(c, right, b, Layout::contiguous(base, elements));
      else
        p.add_send(c, right, b, Layout::box(base, {elements}, {3}));
      p.add_receive(c, left, g, Layout::contiguous(c * elements, elements));
      if (!partitions.empty()) {
        p.partition_send(c, right, partitions);
        p.partition_receive(c, left, partitions);
      }
    }
    p.commit();
    return p;
  }

  std::size_t cell(std::size_t channel, std::size_t i) const { return channel * 3 * elements + (channel % 2 ? 3 * i : i); }
  static double value(int rank, std::size_t channel, int round, std::size_t i) {
    return 1e9 * round + 1e6 * rank + 1e3 * static_cast<double>(channel) + static_cast<double>(i);
  }
  void fill(std::size_t channel, int round, std::size_t from, std::size_t to) {
    auto* values = reinterpret_cast<double*>(block.data());
    for (std::size_t i = from; i < to; ++i) values[cell(channel, i)] = value(w.rank(), channel, round, i);
  }
  // The first element of [from, to) that differs, or `to`.
  std::size_t first_wrong(std::size_t channel, int round, std::size_t from, std::size_t to) const {
    const auto* values = reinterpret_cast<const double*>(ghosts.data()) + channel * elements;
    for (std::size_t i = from; i < to; ++i)
      if (values[i] != value(left, channel, round, i)) return i;
    return to;
  }
};

}  // namespace

TEST(PlanThreads, ThreadsDriveTheirOwnChannels) {
  if (!multiple()) GTEST_SKIP() << "needs MPI_THREAD_MULTIPLE (--thread-level=multiple)";
  const std::size_t team = threads();
  Ring ring(gwtest::world(), 2 * team + 1);  // threads own different numbers of channels
  constexpr int rounds = 150;
  on_threads(team, [&](std::size_t t) {
    for (int round = 1; round <= rounds; ++round)
      for (std::size_t c = t; c < ring.channels; c += team) {
        if (round > 1) ring.plan.wait_send(c, ring.right);  // the receiver has the last one: overwrite
        ring.fill(c, round, 0, Ring::elements);
        ring.plan.send(c, ring.right);
        ring.plan.wait_recv(c, ring.left);
        const std::size_t wrong = ring.first_wrong(c, round, 0, Ring::elements);
        ASSERT_EQ(wrong, Ring::elements) << "channel " << c << " round " << round << " thread " << t;
      }
    for (std::size_t c = t; c < ring.channels; c += team) ring.plan.wait_send(c, ring.right);
  });
  ring.w.barrier();
}

TEST(PlanThreads, PartitionsReadyAndArriveOnTheirOwnThreads) {
  if (!multiple()) GTEST_SKIP() << "needs MPI_THREAD_MULTIPLE (--thread-level=multiple)";
  const std::size_t team = threads();
  const std::vector<std::size_t> sizes{10, 1, 30, 7, 20, 28};  // 96 elements, uneven
  Ring ring(gwtest::world(), 2, sizes);
  ASSERT_EQ(ring.plan.send_partitions(1, ring.right), sizes.size());
  ASSERT_EQ(ring.plan.receive_partitions(0, ring.left), sizes.size());
  std::vector<std::size_t> first(sizes.size() + 1, 0);
  for (std::size_t i = 0; i < sizes.size(); ++i) first[i + 1] = first[i] + sizes[i];
  constexpr int rounds = 100;
  std::barrier sync(static_cast<std::ptrdiff_t>(team));
  on_threads(team, [&](std::size_t t) {
    for (int round = 1; round <= rounds; ++round) {
      // Every fifth round the whole message by one thread (send, wait_recv take every partition).
      if (round % 5 == 0) {
        sync.arrive_and_wait();
        if (t == 0)
          for (std::size_t c = 0; c < ring.channels; ++c) {
            ring.plan.wait_send(c, ring.right);
            ring.fill(c, round, 0, Ring::elements);
            ring.plan.send(c, ring.right);
            ring.plan.wait_recv(c, ring.left);
            ASSERT_EQ(ring.first_wrong(c, round, 0, Ring::elements), Ring::elements) << "whole, round " << round;
          }
        sync.arrive_and_wait();
        continue;
      }
      // Partition k of every channel: thread k % team readies it and receives it, and checks it at
      // once (a partition reported before its data would show here).
      for (std::size_t c = 0; c < ring.channels; ++c)
        for (std::size_t k = t; k < sizes.size(); k += team) {
          ring.plan.wait_send(c, ring.right, k);  // the receiver has its last one: overwrite
          ring.fill(c, round, first[k], first[k + 1]);
          ring.plan.pready(c, ring.right, k);
        }
      for (std::size_t c = 0; c < ring.channels; ++c)
        for (std::size_t k = t; k < sizes.size(); k += team) {
          while (!ring.plan.parrived(c, ring.left, k)) std::this_thread::yield();
          ASSERT_EQ(ring.first_wrong(c, round, first[k], first[k + 1]), first[k + 1])
              << "channel " << c << " partition " << k << " round " << round << " thread " << t;
        }
    }
    for (std::size_t c = 0; c < ring.channels; ++c)
      for (std::size_t k = t; k < sizes.size(); k += team) ring.plan.wait_send(c, ring.right, k);
  });
  ring.w.barrier();
}

// A team between nodes calls MPI from several threads: below MPI_THREAD_MULTIPLE every thread of it
// is refused alike (none is left waiting for the others).
static bool team_refused(World& w, std::size_t team) {
  return team > 1 && w.node_count() > 1 && !multiple();
}

TEST(PlanThreads, ExchangeSharedByATeam) {
  const std::size_t team = threads();
  Ring ring(gwtest::world(), 3 * team + 2);
  if (team_refused(ring.w, team)) {
    on_threads(team, [&](std::size_t t) {
      GW_EXPECT_ERROR(ring.plan.exchange_share(t, team), Errc::state, "a team of", "MPI_THREAD_MULTIPLE");
    });
    ring.plan.exchange();  // refused means not entered
    return;
  }
  std::barrier sync(static_cast<std::ptrdiff_t>(team));
  constexpr int rounds = 60;
  on_threads(team, [&](std::size_t t) {
    for (int round = 1; round <= rounds; ++round) {
      for (std::size_t c = t; c < ring.channels; c += team) ring.fill(c, round, 0, Ring::elements);
      sync.arrive_and_wait();  // every thread's data final before any share sends it
      ring.plan.exchange_share(t, team);
      sync.arrive_and_wait();  // every share in before anyone checks
      for (std::size_t c = t; c < ring.channels; c += team)
        ASSERT_EQ(ring.first_wrong(c, round, 0, Ring::elements), Ring::elements) << "channel " << c << " round " << round;
      sync.arrive_and_wait();  // checked before the next round's data
    }
  });
  ring.w.barrier();
}

// Two threads on one slot: the second is refused, never let in. A rank that is its own neighbour
// makes it deterministic: thread A waits for a message only thread B will send.
TEST(PlanThreads, SecondThreadOnTheSameSlotIsRefused) {
  if (!multiple()) GTEST_SKIP() << "needs MPI_THREAD_MULTIPLE (--thread-level=multiple)";
  World& w = gwtest::world();
  Segment data(w, 64 * sizeof(double)), ghost(w, 64 * sizeof(double));
  Plan plan(w, {w.rank()}, 1);
  const Region d = plan.add_memory(data, sizeof(double)), g = plan.add_memory(ghost, sizeof(double));
  plan.add_send(0, w.rank(), d, Layout::contiguous(0, 64)).add_receive(0, w.rank(), g, Layout::contiguous(0, 64));
  plan.commit();
  std::atomic<bool> waiting{false};
  std::thread waiter([&] {
    waiting = true;
    for (;;) {
      try {
        plan.wait_recv(0, w.rank());
        return;
      } catch (const Error& error) {
        if (error.code() != Errc::state) throw;  // the main thread's test_recv got there first: again
      }
    }
  });
  while (!waiting) std::this_thread::yield();
  // The waiter holds the receive for as long as it waits; it may not have claimed it yet.
  bool refused = false;
  for (int attempt = 0; attempt < 2000 && !refused; ++attempt) {
    try {
      if (plan.test_recv(0, w.rank())) FAIL() << "received a message nobody sent";
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    } catch (const Error& error) {
      refused = true;
      EXPECT_EQ(error.code(), Errc::state) << error.what();
      EXPECT_NE(std::string(error.what()).find("is being used by another thread"), std::string::npos) << error.what();
    }
  }
  EXPECT_TRUE(refused);
  GW_EXPECT_ERROR(plan.exchange(), Errc::state, "Plan::start", "another thread is using channel 0");
  plan.send(0, w.rank());  // the other direction is free: this releases the waiter
  waiter.join();
  plan.wait_send(0, w.rank());
  w.barrier();
}

TEST(PlanThreads, PartitionsMustAgree) {
  World& w = gwtest::world();
  if (w.size() < 2) GTEST_SKIP() << "needs a neighbour";
  const int right = (w.rank() + 1) % w.size(), left = (w.rank() + w.size() - 1) % w.size();
  Segment data(w, 12 * sizeof(double)), ghost(w, 12 * sizeof(double));
  std::vector<int> neighbours{right};
  if (left != right) neighbours.push_back(left);
  {
    Plan plan(w, neighbours, 1);
    const Region d = plan.add_memory(data, sizeof(double)), g = plan.add_memory(ghost, sizeof(double));
    plan.add_send(0, right, d, Layout::contiguous(0, 12)).add_receive(0, left, g, Layout::contiguous(0, 12));
    plan.partition_send(0, right, 3).partition_receive(0, left, 2);
    GW_EXPECT_ERROR(plan.commit(), Errc::mismatch, "sends it in 3 partition(s)", "receives it in 2");
  }
  {
    Plan plan(w, neighbours, 1);
    const Region d = plan.add_memory(data, sizeof(double)), g = plan.add_memory(ghost, sizeof(double));
    plan.add_send(0, right, d, Layout::contiguous(0, 12)).add_receive(0, left, g, Layout::contiguous(0, 12));
    const std::vector<std::size_t> mine{5, 5}, theirs{4, 8};
    plan.partition_send(0, right, mine).partition_receive(0, left, theirs);
    GW_EXPECT_ERROR(plan.commit(), Errc::invalid_argument, "partitions hold 10 elements but the message has 12");
  }
  {
    Plan plan(w, neighbours, 1);
    const Region d = plan.add_memory(data, sizeof(double)), g = plan.add_memory(ghost, sizeof(double));
    plan.add_send(0, right, d, Layout::contiguous(0, 12)).add_receive(0, left, g, Layout::contiguous(0, 12));
    const std::vector<std::size_t> sizes{4, 8}, other{8, 4};
    plan.partition_send(0, right, sizes).partition_receive(0, left, other);
    // Between node peers (and separate between nodes) each partition is a slot, checked as one; a
    // combined message's cut is checked as a whole.
    GW_EXPECT_ERROR(plan.commit(), Errc::mismatch, "channel 0");
  }
  {
    Plan plan(w, neighbours, 1);
    const Region d = plan.add_memory(data, sizeof(double)), g = plan.add_memory(ghost, sizeof(double));
    plan.add_send(0, right, d, Layout::contiguous(0, 12)).add_receive(0, left, g, Layout::contiguous(0, 12));
    plan.partition_send(0, right, 3).partition_receive(0, left, 3);
    plan.commit();
    // Node peers' partitions are slots of their own; between nodes the setting decides, or in
    // automatic mode the size and the machines' load (not known here: read from describe()).
    const bool combined = plan.describe().find("partitions in one message") != std::string::npos;
    if (w.shares_memory_with(right) || w.settings().partition_messages == PartitionMessages::separate) {
      EXPECT_FALSE(combined) << plan.describe();
    } else if (w.settings().partition_messages == PartitionMessages::combined) {
      EXPECT_TRUE(combined) << plan.describe();
    }
    EXPECT_NE(plan.describe().find(combined ? "channel 0 with rank " + std::to_string(right) + " (3 partitions in one message)"
                                            : "channel 0 (partition 2) with rank " + std::to_string(right)),
              std::string::npos)
        << plan.describe();
    GW_EXPECT_ERROR(plan.pready(0, right, 3), Errc::out_of_range, "partition 3 is not in [0, 3)");
    GW_EXPECT_ERROR(plan.partition_send(0, right, 2), Errc::state, "already committed");
    plan.exchange();  // every partition, as one exchange
    if (combined) {
      // The message goes once every partition is ready: until then a partition is ready once.
      plan.pready(0, right, 0);
      GW_EXPECT_ERROR(plan.pready(0, right, 0), Errc::state, "partition 0 of the send on", "is ready already");
      EXPECT_FALSE(plan.test_send(0, right, 0));  // readied, not gone: its data is still needed
      plan.pready(0, right, 2);
      plan.pready(0, right, 1);
      EXPECT_TRUE(plan.test_send(0, right, 0));  // gone, packed: its data may change
    } else {
      for (std::size_t k = 0; k < 3; ++k) plan.pready(0, right, k);
      w.barrier();  // nobody has received: every partition's message is unacknowledged
      // Between nodes a partition's data is packed when it is readied, so readying it again would
      // only wait for MPI to take the first message (as exchange() does): no error to see there.
      for (std::size_t k = 0; k < 3 && w.shares_memory_with(right); ++k) {
        const std::string slot = "channel 0 (partition " + std::to_string(k) + ")";
        GW_EXPECT_ERROR(plan.pready(0, right, k), Errc::state, slot.c_str());
      }
    }
    w.barrier();
    for (std::size_t k = 3; k-- > 0;)
      while (!plan.parrived(0, left, k)) {
      }
    plan.wait_send(0, right);
  }
  w.barrier();
}

TEST(PlanThreads, GridUpdatedByATeam) {
  World& w = gwtest::world();
  const std::size_t team = threads();
  Halo<2> halo;
  halo.width = {1, 2};
  halo.periodic = {true, true};
  halo.stencil = Stencil::full;
  Grid<double, 2> grid(w, Point<2>{37, 29}, halo);
  const Point<2> extent = grid.local_extents(), global = grid.extents();
  auto value = [&](Point<2> g, int round) {
    for (int d = 0; d < 2; ++d) g[d] = ((g[d] % global[d]) + global[d]) % global[d];
    return 1e6 * round + static_cast<double>(g[0] * global[1] + g[1]);
  };
  // The first shared update builds the grid's update (collective MPI calls) on thread 0, which here
  // is not MPI's main thread: below MPI_THREAD_MULTIPLE build it on the main thread first.
  if (!multiple()) grid.update_halo();
  if (team_refused(w, team)) {
    on_threads(team, [&](std::size_t t) {
      GW_EXPECT_ERROR(grid.update_halo_shared(t, team), Errc::state, "a team of");
    });
    grid.update_halo();
    return;
  }
  constexpr int rounds = 20;
  std::barrier sync(static_cast<std::ptrdiff_t>(team));
  on_threads(team, [&](std::size_t t) {
    for (int round = 1; round <= rounds; ++round) {
      for (Index i = static_cast<Index>(t); i < extent[0]; i += static_cast<Index>(team))
        for (Index j = 0; j < extent[1]; ++j) grid[{i, j}] = value(grid.to_global({i, j}), round);
      grid.update_halo_shared(t, team);
      // Every cell of rows t, t + team, ... of the padded block, ghosts included.
      for (Index i = -1 + static_cast<Index>(t); i < extent[0] + 1; i += static_cast<Index>(team))
        for (Index j = -2; j < extent[1] + 2; ++j)
          ASSERT_EQ((grid[{i, j}]), value(grid.to_global({i, j}), round)) << "cell (" << i << ", " << j << ") round " << round;
      sync.arrive_and_wait();  // checked before anyone writes the next round
    }
  });
  w.barrier();
}

// Below MPI_THREAD_MULTIPLE a slot between nodes calls MPI: FUNNELED lets only the main thread in,
// SERIALIZED one thread at a time; node peers' slots call no MPI and any thread may drive them.
TEST(PlanThreads, LevelsRefuseWhatTheyDoNotAllow) {
  World& w = gwtest::world();
  if (multiple()) GTEST_SKIP() << "MPI_THREAD_MULTIPLE allows every thread";
  Ring ring(w, 1);
  const bool between = !w.shares_memory_with(ring.right);
  const char* level = thread_level_name(w.thread_level());
  if (w.thread_level() <= ThreadLevel::funneled) {
    std::thread other([&] {
      if (between)
        GW_EXPECT_ERROR(ring.plan.test_send(0, ring.right), Errc::state, "travels between nodes", level,
                        "only the main thread may call MPI");
      else
        EXPECT_TRUE(ring.plan.test_send(0, ring.right));  // a node peer's slot: no MPI, no refusal
    });
    other.join();
  } else if (between && w.thread_level() == ThreadLevel::serialized) {
    // One thread keeps entering MPI through the receive; the other is turned away while it is in.
    std::atomic<bool> stop{false};
    std::thread polling([&] {
      while (!stop) {
        try {
          ring.plan.test_recv(0, ring.left);
        } catch (const Error& error) {
          if (error.code() != Errc::state) throw;  // the main thread was in MPI: turned away in turn
        }
      }
    });
    bool refused = false;
    for (int attempt = 0; attempt < 1000000 && !refused; ++attempt) {
      try {
        ring.plan.test_send(0, ring.right);
      } catch (const Error& error) {
        refused = true;
        EXPECT_NE(std::string(error.what()).find("MPI_THREAD_SERIALIZED"), std::string::npos) << error.what();
      }
    }
    stop = true;
    polling.join();
    EXPECT_TRUE(refused);
    w.barrier();  // no rank sends below before every rank has stopped polling for it
  }
  ring.fill(0, 1, 0, Ring::elements);
  ring.plan.send(0, ring.right);
  ring.plan.wait_recv(0, ring.left);
  EXPECT_EQ(ring.first_wrong(0, 1, 0, Ring::elements), Ring::elements);
  ring.plan.wait_send(0, ring.right);
  w.barrier();
}
