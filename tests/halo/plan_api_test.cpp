// SPDX-License-Identifier: BSD-3-Clause
// The explicit slot API, the unstructured helper, many slots, and misuse reported with clear text.
#include <algorithm>
#include <random>

#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

int right_of(const World& w) { return (w.rank() + 1) % w.size(); }
int left_of(const World& w) { return (w.rank() + w.size() - 1) % w.size(); }

// A ring plan: channel c sends element c of `out` to the right and receives into element c of
// `in` from the left.
struct Ring {
  Segment out, in;
  Plan plan;
  Ring(World& w, std::size_t channels)
      : out(w, channels * sizeof(double)), in(w, channels * sizeof(double)), plan(make(w, channels)) {}
  Plan make(World& w, std::size_t channels) {
    std::vector<int> neighbours{right_of(w)};
    if (left_of(w) != right_of(w)) neighbours.push_back(left_of(w));
    Plan p(w, neighbours, channels);
    Region o = p.add_memory(out, sizeof(double)), i = p.add_memory(in, sizeof(double));
    for (std::size_t c = 0; c < channels; ++c) {
      p.add_send(c, right_of(w), o, Layout::contiguous(c, 1));
      p.add_receive(c, left_of(w), i, Layout::contiguous(c, 1));
    }
    p.commit();
    return p;
  }
  double* output() { return reinterpret_cast<double*>(out.data()); }
  double* input() { return reinterpret_cast<double*>(in.data()); }
};

}  // namespace

TEST(PlanApi, SendTestAndWaitOnSingleSlots) {
  World& w = gwtest::world();
  Ring ring(w, 4);
  for (int round = 1; round <= 50; ++round) {
    for (std::size_t c = 0; c < 4; ++c) ring.output()[c] = 1000.0 * round + 10 * w.rank() + c;
    for (std::size_t c = 0; c < 4; ++c) ring.plan.send(c, right_of(w));
    // Receive in reverse channel order: channels are independent.
    for (std::size_t c = 4; c-- > 0;) {
      ring.plan.wait_recv(c, left_of(w));
      EXPECT_EQ(ring.input()[c], 1000.0 * round + 10 * left_of(w) + c) << "round " << round << " channel " << c;
    }
    for (std::size_t c = 0; c < 4; ++c) ring.plan.wait_send(c, right_of(w));
    EXPECT_TRUE(ring.plan.test_send(0, right_of(w)));
    w.barrier();  // nobody sends the next round before everybody has checked
    EXPECT_FALSE(ring.plan.test_recv(0, left_of(w))) << "nothing new was sent";
    w.barrier();
  }
  w.barrier();
}

TEST(PlanApi, SixtyFiveThousandSlots) {
  World& w = gwtest::world();
  // 65,536 channel x neighbour slots (two neighbours where there are two); two rounds use both
  // halves of every double-buffered slot (a third took 2-9 s more per launch in CI).
  std::size_t neighbours = left_of(w) == right_of(w) ? 1 : 2;
  std::size_t channels = 65536 / neighbours;
  Ring ring(w, channels);
  for (int round = 1; round <= 2; ++round) {
    for (std::size_t c = 0; c < channels; ++c) ring.output()[c] = round * 1e6 + static_cast<double>(c);
    ring.plan.exchange();
    for (std::size_t c = 0; c < channels; ++c)
      ASSERT_EQ(ring.input()[c], round * 1e6 + static_cast<double>(c)) << "channel " << c;
  }
  w.barrier();
}

// Past the process's budget of persistent requests (between nodes), a plan posts no receives; a
// large message sent and never received must not keep the plan's destruction from finishing.
TEST(PlanApi, ManySlotsDestroyedWithAnUnreceivedLargeMessage) {
  World& w = gwtest::world();
  if (w.size() < 2) GTEST_SKIP() << "needs a neighbour";
  const std::size_t channels = 40000, big = 16384;  // channel 0: 128 KiB, past every eager limit
  Segment out(w, (big + channels) * sizeof(double)), in(w, (big + channels) * sizeof(double));
  {
    std::vector<int> neighbours{right_of(w)};
    if (left_of(w) != right_of(w)) neighbours.push_back(left_of(w));
    Plan plan(w, neighbours, channels);
    Region o = plan.add_memory(out, sizeof(double)), i = plan.add_memory(in, sizeof(double));
    for (std::size_t c = 0; c < channels; ++c) {
      std::size_t count = c == 0 ? big : 1, start = c == 0 ? 0 : big + c;
      plan.add_send(c, right_of(w), o, Layout::contiguous(start, count));
      plan.add_receive(c, left_of(w), i, Layout::contiguous(start, count));
    }
    plan.commit();
    std::fill_n(reinterpret_cast<double*>(out.data()), big, 1.0 + w.rank());
    plan.send(0, right_of(w));
    w.barrier();
  }  // destroyed with channel 0's message unreceived everywhere
  w.barrier();
}

TEST(PlanApi, ExchangeOneChannelAtATime) {
  World& w = gwtest::world();
  Ring ring(w, 3);
  for (std::size_t c = 0; c < 3; ++c) ring.output()[c] = 7.0 + w.rank() * 3 + c;
  for (std::size_t c = 0; c < 3; ++c) {
    ring.plan.exchange(c);
    EXPECT_EQ(ring.input()[c], 7.0 + left_of(w) * 3 + c);
    for (std::size_t later = c + 1; later < 3; ++later) EXPECT_EQ(ring.input()[later], 0.0) << "channel " << later << " ran early";
  }
  w.barrier();
}

// A sender may run one exchange ahead of its receiver on a packed (staged) node-peer slot or a
// message between nodes: rank 0 finishes exchange k and starts k+1 while rank 1 has not yet
// taken message k. Rank 1 must then still get k (and next k+1), not k+1 twice: the messages go to
// the two halves of a double buffer. With a single buffer rank 0's start() would wait for rank 1,
// which waits at the barrier: a timeout.
TEST(PlanApi, PackedSenderRunsOneExchangeAhead) {
  World& w = gwtest::world();
  if (w.size() != 2) GTEST_SKIP() << "needs exactly 2 ranks";
  constexpr std::size_t count = 8, stride = 16;  // a sparse layout (one element per cache line): packed
  Segment out(w, count * stride * sizeof(double)), in(w, count * stride * sizeof(double));
  const int other = 1 - w.rank();
  Plan plan(w, std::vector<int>{other}, 1);
  Region o = plan.add_memory(out, sizeof(double)), i = plan.add_memory(in, sizeof(double));
  const std::size_t extent[1] = {count};
  const std::ptrdiff_t step[1] = {static_cast<std::ptrdiff_t>(stride)};
  plan.add_send(0, other, o, Layout::box(0, extent, step));
  plan.add_receive(0, other, i, Layout::box(0, extent, step));
  plan.commit();
  // Pushed (GHOSTWIRE_INTRA_PATH=pushed), rank 0's start() of round + 1 cannot write yet (rank 1
  // has not asked for it): the write waits, start() returns, and the barrier's wait writes it
  // once rank 1 says its ghost cells are free.
  auto* mine = reinterpret_cast<double*>(out.data());
  const auto* theirs = reinterpret_cast<const double*>(in.data());
  auto value = [](int rank, int round, std::size_t k) { return 1000.0 * round + 100.0 * rank + static_cast<double>(k); };
  auto write = [&](int round) {
    for (std::size_t k = 0; k < count; ++k) mine[k * stride] = value(w.rank(), round, k);
  };
  auto check = [&](int round) {
    for (std::size_t k = 0; k < count; ++k)
      ASSERT_EQ(theirs[k * stride], value(other, round, k)) << "round " << round << ", element " << k;
  };
  for (int round = 1; round <= 20; round += 2) {
    write(round);
    plan.start();
    w.barrier();  // both have posted `round`
    if (w.rank() == 0) {
      plan.finish();
      check(round);
      write(round + 1);
      plan.start();  // rank 1 has not taken message `round` yet
      w.barrier();
      plan.finish();
      check(round + 1);
    } else {
      w.barrier();  // rank 0 has posted round + 1 already
      plan.finish();
      check(round);
      write(round + 1);
      plan.start();
      plan.finish();
      check(round + 1);
    }
  }
  w.barrier();
}

TEST(PlanApi, UnstructuredPlanFromGhostMap) {
  World& w = gwtest::world();
  // A random point cloud in the unit cube; points owned by slabs of x; each rank's ghosts are the
  // points of other ranks within a distance of its own points (as a mesh partition would have).
  std::mt19937 random(42);
  std::uniform_real_distribution<double> unit(0, 1);
  const std::size_t total = 3000;
  std::vector<std::array<double, 3>> points(total);
  for (auto& p : points) p = {unit(random), unit(random), unit(random)};
  auto owner_of = [&](std::size_t i) { return std::min(w.size() - 1, static_cast<int>(points[i][0] * w.size())); };
  std::vector<std::vector<std::size_t>> owned_by(static_cast<std::size_t>(w.size()));
  for (std::size_t i = 0; i < total; ++i) owned_by[static_cast<std::size_t>(owner_of(i))].push_back(i);
  const auto& mine = owned_by[static_cast<std::size_t>(w.rank())];

  Segment owned(w, std::max<std::size_t>(mine.size(), 1) * sizeof(double));
  auto* values = reinterpret_cast<double*>(owned.data());
  GhostMap map;
  std::vector<std::size_t> ghost_global;
  for (std::size_t i = 0; i < total; ++i) {
    int r = owner_of(i);
    if (r == w.rank()) continue;
    double slab_low = static_cast<double>(w.rank()) / w.size(), slab_high = static_cast<double>(w.rank() + 1) / w.size();
    if (points[i][0] < slab_low - 0.03 || points[i][0] > slab_high + 0.03) continue;
    const auto& list = owned_by[static_cast<std::size_t>(r)];
    map.owner.push_back(r);
    map.index.push_back(static_cast<std::size_t>(std::find(list.begin(), list.end(), i) - list.begin()));
    ghost_global.push_back(i);
  }
  std::vector<double> ghosts(map.owner.size(), -1.0);
  Plan plan = make_unstructured_plan(w, owned, 0, mine.size(), ghosts.data(), map, sizeof(double));
  for (int round = 0; round < 3; ++round) {
    for (std::size_t k = 0; k < mine.size(); ++k) values[k] = static_cast<double>(mine[k]) + round * 1e5;
    plan.exchange();
    for (std::size_t g = 0; g < ghosts.size(); ++g)
      ASSERT_EQ(ghosts[g], static_cast<double>(ghost_global[g]) + round * 1e5) << "ghost entry " << g;
  }
  w.barrier();
}

TEST(PlanApi, UnstructuredMapErrorsNameTheEntry) {
  World& w = gwtest::world();
  Segment owned(w, 10 * sizeof(double));
  std::vector<double> ghosts(1);
  GhostMap bad;
  bad.owner = {w.size()};
  bad.index = {0};
  std::string rank_text = "names owner rank " + std::to_string(w.size());
  GW_EXPECT_ERROR(make_unstructured_plan(w, owned, 0, 10, ghosts.data(), bad, sizeof(double)), Errc::out_of_range,
                  "ghost entry 0", rank_text.c_str());
  GhostMap too_far;
  too_far.owner = {right_of(w)};
  too_far.index = {10};
  GW_EXPECT_ERROR(make_unstructured_plan(w, owned, 0, 10, ghosts.data(), too_far, sizeof(double)), Errc::out_of_range,
                  "asks for element 10", "which owns 10 elements");
}

TEST(PlanMisuse, MismatchedSizesReportedOnBothRanks) {
  World& w = gwtest::world();
  if (w.size() < 2) GTEST_SKIP() << "needs two ranks";
  Segment memory(w, 64 * sizeof(double));
  std::vector<int> neighbours{right_of(w)};
  if (left_of(w) != right_of(w)) neighbours.push_back(left_of(w));
  Plan plan(w, neighbours, 2);
  Region r = plan.add_memory(memory, sizeof(double));
  // Rank 0 sends 10 elements on channel 1 but its right neighbour expects 9.
  for (std::size_t c = 0; c < 2; ++c) {
    plan.add_send(c, right_of(w), r, Layout::contiguous(0, (c == 1 && w.rank() == 0) ? 10 : 9));
    plan.add_receive(c, left_of(w), r, Layout::contiguous(20, 9));
  }
  bool involved = w.rank() == 0 || w.rank() == 1;
  if (involved)
    GW_EXPECT_ERROR(plan.commit(), Errc::mismatch, "channel 1 from rank 0 to rank 1",
                    "rank 0 sends 10 elements of 8 bytes (80 bytes)", "rank 1 receives 9 elements of 8 bytes (72 bytes)");
  else
    GW_EXPECT_ERROR(plan.commit(), Errc::mismatch, "problem(s) found on other ranks");
}

TEST(PlanMisuse, ElementSizeAndChannelCountMismatch) {
  World& w = gwtest::world();
  if (w.size() < 2) GTEST_SKIP() << "needs two ranks";
  Segment memory(w, 64 * sizeof(double));
  std::vector<int> neighbours{right_of(w)};
  if (left_of(w) != right_of(w)) neighbours.push_back(left_of(w));
  {
    Plan plan(w, neighbours, 1);
    // Rank 1 receives floats where rank 0 sends doubles.
    Region doubles = plan.add_memory(memory, sizeof(double)), floats = plan.add_memory(memory, sizeof(float));
    plan.add_send(0, right_of(w), doubles, Layout::contiguous(0, 4));
    plan.add_receive(0, left_of(w), w.rank() == 1 ? floats : doubles, Layout::contiguous(8, w.rank() == 1 ? 8 : 4));
    if (w.rank() <= 1)
      GW_EXPECT_ERROR(plan.commit(), Errc::mismatch, "rank 0 sends 4 elements of 8 bytes",
                      "rank 1 receives 8 elements of 4 bytes");
    else
      GW_EXPECT_ERROR(plan.commit(), Errc::mismatch, "found on other ranks");
  }
  {
    Plan plan(w, neighbours, w.rank() == 0 ? 3 : 2);
    if (w.rank() == 0 || right_of(w) == 0 || left_of(w) == 0)
      GW_EXPECT_ERROR(plan.commit(), Errc::mismatch, "channels but its neighbour");
    else
      GW_EXPECT_ERROR(plan.commit(), Errc::mismatch, "found on other ranks");
  }
}

TEST(PlanMisuse, OneSidedNeighbourList) {
  World& w = gwtest::world();
  if (w.size() < 3) GTEST_SKIP() << "needs three ranks";
  // Rank 0 lists rank 2; rank 2 does not list rank 0.
  std::vector<int> neighbours;
  if (w.rank() == 0) neighbours = {2};
  Plan plan(w, neighbours, 1);
  if (w.rank() == 0)
    GW_EXPECT_ERROR(plan.commit(), Errc::mismatch, "rank 0 lists rank 2 as a neighbour but rank 2 does not list rank 0");
  else if (w.rank() == 2)
    GW_EXPECT_ERROR(plan.commit(), Errc::mismatch, "rank 0 lists rank 2 as a neighbour but rank 2 does not list rank 0");
  else
    GW_EXPECT_ERROR(plan.commit(), Errc::mismatch, "found on other ranks");
}

TEST(PlanMisuse, SlotErrorsNameChannelAndRank) {
  World& w = gwtest::world();
  Ring ring(w, 2);
  std::string not_neighbour = "rank " + std::to_string(w.size()) + " is not a neighbour";
  GW_EXPECT_ERROR(ring.plan.send(0, w.size()), Errc::out_of_range, not_neighbour.c_str());
  GW_EXPECT_ERROR(ring.plan.send(2, right_of(w)), Errc::out_of_range, "channel 2 is not in [0, 2)");
  GW_EXPECT_ERROR(ring.plan.wait_recv(5, left_of(w)), Errc::out_of_range, "channel 5");
  if (left_of(w) != right_of(w)) {
    std::string no_send = "channel 0 with rank " + std::to_string(left_of(w)) + " has no send layout";
    GW_EXPECT_ERROR(ring.plan.send(0, left_of(w)), Errc::state, no_send.c_str());
  }
  // Resend before the receiver took the message. Staged: the message is not acknowledged. Pushed
  // (GHOSTWIRE_INTRA_PATH=pushed): the first message went to staging (the receiver was not ready),
  // so a second send is accepted and waits to be written; a third has to wait for it.
  const bool pushed = ring.plan.describe().find("pushed") != std::string::npos;
  int sent = 0;
  ring.plan.send(1, right_of(w));
  ++sent;
  w.barrier();  // the left neighbour has not received yet: it is in this barrier
  if (pushed) {
    ring.plan.send(1, right_of(w));
    ++sent;
    EXPECT_FALSE(ring.plan.test_send(1, right_of(w))) << "the second message cannot have been written yet";
  }
  std::string resend = "channel 1 with rank " + std::to_string(right_of(w));
  GW_EXPECT_ERROR(ring.plan.send(1, right_of(w)), Errc::state, resend.c_str(),
                  pushed ? "has not been written yet" : "has not been acknowledged", "wait_send");
  w.barrier();  // and nobody receives before everybody has checked
  for (int k = 0; k < sent; ++k) ring.plan.wait_recv(1, left_of(w));
  ring.plan.wait_send(1, right_of(w));
  ring.plan.send(1, right_of(w));  // allowed again
  ring.plan.wait_recv(1, left_of(w));
  ring.plan.wait_send(1, right_of(w));
  w.barrier();
}

TEST(PlanMisuse, LayoutsAndRegionsAreChecked) {
  World& w = gwtest::world();
  Segment memory(w, 16 * sizeof(double));
  Plan plan(w, {right_of(w)}, 1);
  Region r = plan.add_memory(memory, sizeof(double));
  GW_EXPECT_ERROR(plan.add_send(0, right_of(w), r, Layout::contiguous(10, 7)), Errc::out_of_range,
                  "reaches element 16", "region has 16 elements");
  GW_EXPECT_ERROR(plan.add_send(0, right_of(w), r, Layout::box(0, {4, 5}, {1, 4})), Errc::out_of_range,
                  "reaches element 19");
  GW_EXPECT_ERROR(plan.add_send(0, right_of(w), Region{9}, Layout::contiguous(0, 1)), Errc::invalid_argument,
                  "region 9 was not returned");
  GW_EXPECT_ERROR(plan.add_memory(memory, sizeof(double), 8, 1000), Errc::out_of_range, "exceed the segment's 128 bytes");
  GW_EXPECT_ERROR(Layout::box(0, {2, 2, 2, 2}, {1, 2, 4, 8}), Errc::invalid_argument, "4 dimensions", "1 to 3");
  GW_EXPECT_ERROR(Layout::box(0, {3}, {-1}), Errc::out_of_range, "negative strides");
  GW_EXPECT_ERROR(Plan(w, {0, 0}, 1), Errc::invalid_argument, "listed twice");
  GW_EXPECT_ERROR(Plan(w, {right_of(w)}, 0), Errc::invalid_argument, "channels is 0");
  GW_EXPECT_ERROR(plan.send(0, right_of(w)), Errc::state, "not committed");
}

TEST(PlanApi, TestFinishPollsAnExchangeToItsEnd) {
  World& w = gwtest::world();
  Ring ring(w, 3);
  for (int round = 1; round <= 20; ++round) {
    for (std::size_t c = 0; c < 3; ++c) ring.output()[c] = 100.0 * round + 10 * w.rank() + c;
    for (std::size_t c = 0; c < 3; ++c) ring.input()[c] = -1;
    ring.plan.start();
    while (!ring.plan.test_finish()) {
    }
    for (std::size_t c = 0; c < 3; ++c) ASSERT_EQ(ring.input()[c], 100.0 * round + 10 * left_of(w) + c) << "round " << round;
    if (round % 2) {  // one channel at a time too
      ring.plan.start(1);
      while (!ring.plan.test_finish(1)) {
      }
      ASSERT_EQ(ring.input()[1], 100.0 * round + 10 * left_of(w) + 1);
    }
    w.barrier();
  }
}

// finish() after test_finish() took some messages waits only for the rest; a second finish(), with
// nothing left in the exchange, returns at once (as MPI_Wait on an inactive request) and leaves the
// ghost cells alone.
TEST(PlanApi, FinishAfterTestFinishAndFinishTwice) {
  World& w = gwtest::world();
  Ring ring(w, 3);
  for (int round = 1; round <= 20; ++round) {
    for (std::size_t c = 0; c < 3; ++c) ring.output()[c] = 100.0 * round + 10 * w.rank() + c;
    for (std::size_t c = 0; c < 3; ++c) ring.input()[c] = -1;
    ring.plan.start();
    (void)ring.plan.test_finish();  // takes what has arrived, if anything
    ring.plan.finish();
    for (std::size_t c = 0; c < 3; ++c) ASSERT_EQ(ring.input()[c], 100.0 * round + 10 * left_of(w) + c) << "round " << round;
    ring.input()[0] = -7;
    ring.plan.finish();
    ASSERT_EQ(ring.input()[0], -7) << "a second finish wrote the ghost cells, round " << round;
    w.barrier();
  }
}
