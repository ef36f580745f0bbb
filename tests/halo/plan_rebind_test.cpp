// SPDX-License-Identifier: BSD-3-Clause
// Plan::rebind: a private region moves between two arrays every round, in messages that also carry
// a region in a Segment that stays. After every exchange the current array's ghosts hold this
// round's values of their owners and the other array's ghosts are untouched (a path still reading
// or writing the old array fails either way); the reverse exchange sums into the current array;
// a move while an exchange is under way, of Segment memory or of overlapping regions, is refused.
// On every path the halo matrix forces; a path that cannot follow (the tests' bounce path) refuses
// by name.
#include <mpi.h>

#include <string>
#include <thread>
#include <vector>

#include "bounce_path.hpp"
#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

double value(int rank, std::size_t i, int round) { return rank * 1e6 + static_cast<double>(i) * 0.5 + round; }
constexpr double untouched = -3.0;

// A ring: my owned block in the middle of each array, ghosts from the left and right ranks either
// side. Channel 0 to the right carries the private block and the Segment's block (two regions, one
// message); channel 1 to the left the private block alone (one run when `stride` is 1, received
// in place between nodes).
struct MovingRing {
  World& w;
  int left, right;
  std::size_t block, stride;
  std::vector<double> arrays[2];
  Segment fixed;
  Plan plan;
  Region moving, staying;

  MovingRing(World& world, std::size_t count, std::size_t step, bool reverse = false)
      : w(world),
        left((world.rank() + world.size() - 1) % world.size()),
        right((world.rank() + 1) % world.size()),
        block(count),
        stride(step),
        arrays{std::vector<double>(3 * count * step, untouched), std::vector<double>(3 * count * step, untouched)},
        fixed(world, 3 * count * sizeof(double)),
        plan(world, neighbours(), 2) {
    moving = plan.add_memory(arrays[0].data(), arrays[0].size() * sizeof(double), sizeof(double));
    if (!reverse) staying = plan.add_memory(fixed, sizeof(double));
    auto part = [&](std::size_t k, std::size_t s) {
      const std::size_t extent[1] = {block};
      const std::ptrdiff_t step_of[1] = {static_cast<std::ptrdiff_t>(s)};
      return Layout::box(k * block * s, extent, step_of);
    };
    plan.add_send(0, right, moving, part(1, stride)).add_receive(0, left, moving, part(0, stride));
    if (!reverse) plan.add_send(0, right, staying, part(1, 1)).add_receive(0, left, staying, part(0, 1));
    plan.add_send(1, left, moving, part(1, stride)).add_receive(1, right, moving, part(2, stride));
    if (reverse) plan.enable_reverse();
    plan.commit();
  }
  std::vector<int> neighbours() const {
    std::vector<int> ranks{left};
    if (right != left) ranks.push_back(right);
    return ranks;
  }
  double& at(int array, std::size_t part, std::size_t i) { return arrays[array][(part * block + i) * stride]; }
  double* fixed_data() { return reinterpret_cast<double*>(fixed.data()); }

  // Round `round` on array round % 2: owned values written, the other array's ghosts marked.
  void fill(int round) {
    const int now = round % 2, other = 1 - now;
    for (std::size_t i = 0; i < block; ++i) {
      at(now, 1, i) = value(w.rank(), i, round);
      fixed_data()[block + i] = value(w.rank(), i, -round);
      at(other, 0, i) = at(other, 2, i) = untouched;
    }
  }
  void check(int round) {
    const int now = round % 2, other = 1 - now;
    for (std::size_t i = 0; i < block; ++i) {
      ASSERT_EQ(at(now, 0, i), value(left, i, round)) << "round " << round << ", ghost " << i << " from the left";
      ASSERT_EQ(at(now, 2, i), value(right, i, round)) << "round " << round << ", ghost " << i << " from the right";
      ASSERT_EQ(fixed_data()[i], value(left, i, -round)) << "round " << round << ", Segment ghost " << i;
      ASSERT_EQ(at(other, 0, i), untouched) << "round " << round << ": the old array's ghost " << i << " was written";
      ASSERT_EQ(at(other, 2, i), untouched) << "round " << round << ": the old array's ghost " << i << " was written";
    }
  }
};

// Whether some slot of the plan is on the tests' bounce path, which does not follow moved memory.
bool on_bounce(const Plan& plan) { return plan.describe().find(gwtest::bounce_description) != std::string::npos; }
// Whether any rank's plan is: then no rank runs the rounds (they are collective).
bool bounce_anywhere(const Plan& plan) {
  int mine = on_bounce(plan) ? 1 : 0, any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, plan.world().comm());
  return any != 0;
}

TEST(PlanRebind, SwappedArraysEveryRound) {
  World& w = gwtest::world();
  for (auto [count, stride] : {std::pair<std::size_t, std::size_t>{4096, 1}, {64, 1}, {300, 3}}) {
    MovingRing ring(w, count, stride);
    if (on_bounce(ring.plan))
      GW_EXPECT_ERROR(ring.plan.rebind(ring.moving, ring.arrays[1].data()), Errc::state, "Plan::rebind",
                      "its path 'bounce' cannot follow memory moved by Plan::rebind");
    if (bounce_anywhere(ring.plan)) continue;
    for (int round = 1; round <= 12; ++round) {
      ring.plan.rebind(ring.moving, ring.arrays[round % 2].data());
      ring.fill(round);
      if (round % 3 == 0) {
        ring.plan.exchange();
      } else {
        ring.plan.start();
        ring.plan.finish();
      }
      ring.check(round);
    }
  }
  w.barrier();
}

// Slot by slot: send, wait_recv and wait_send on each (channel, neighbour), the array moved between.
TEST(PlanRebind, SlotBySlotCalls) {
  World& w = gwtest::world();
  MovingRing ring(w, 200, 2);
  if (bounce_anywhere(ring.plan)) return;
  for (int round = 1; round <= 6; ++round) {
    ring.plan.rebind(ring.moving, ring.arrays[round % 2].data());
    ring.fill(round);
    ring.plan.send(0, ring.right);
    ring.plan.send(1, ring.left);
    ring.plan.wait_recv(0, ring.left);
    ring.plan.wait_recv(1, ring.right);
    ring.plan.wait_send(0, ring.right);
    ring.plan.wait_send(1, ring.left);
    ring.check(round);
    w.barrier();  // my neighbours have read what I sent before I change it
  }
}

// The reverse exchange follows too: each round's ghosts, written into the current array, are summed
// into the owners' blocks of their current arrays.
TEST(PlanRebind, ReverseSumsIntoTheCurrentArray) {
  World& w = gwtest::world();
  MovingRing ring(w, 500, 1, true);
  if (bounce_anywhere(ring.plan)) return;
  auto ghost = [](int rank, std::size_t side, std::size_t i, int round) {
    return static_cast<double>(rank * 1000 + static_cast<int>(side) * 100 + static_cast<int>(i % 50) + round);
  };
  for (int round = 1; round <= 8; ++round) {
    const int now = round % 2;
    ring.plan.rebind(ring.moving, ring.arrays[now].data());
    for (std::size_t i = 0; i < ring.block; ++i) {
      ring.at(now, 1, i) = static_cast<double>(i);
      ring.at(now, 0, i) = ghost(w.rank(), 0, i, round);
      ring.at(now, 2, i) = ghost(w.rank(), 2, i, round);
      ring.at(1 - now, 1, i) = untouched;
    }
    ring.plan.reverse_exchange(Combine{ReduceOp::sum, ScalarType::float64});
    for (std::size_t i = 0; i < ring.block; ++i) {
      // My block went right on channel 0 (into the right rank's left ghosts) and left on channel 1.
      const double expected = static_cast<double>(i) + ghost(ring.right, 0, i, round) + ghost(ring.left, 2, i, round);
      ASSERT_EQ(ring.at(now, 1, i), expected) << "round " << round << ", owned " << i;
      ASSERT_EQ(ring.at(1 - now, 1, i), untouched) << "round " << round << ": the old array's owned " << i;
    }
  }
  w.barrier();
}

// A partitioned message (each partition its own message inside a node, combined into one between
// nodes) follows the array too, readied partition by partition.
TEST(PlanRebind, PartitionedMessages) {
  World& w = gwtest::world();
  const int left = (w.rank() + w.size() - 1) % w.size(), right = (w.rank() + 1) % w.size();
  const std::size_t block = 1000;
  std::vector<double> arrays[2] = {std::vector<double>(2 * block, untouched), std::vector<double>(2 * block, untouched)};
  std::vector<int> ranks{left};
  if (right != left) ranks.push_back(right);
  Plan plan(w, ranks);
  Region field = plan.add_memory(arrays[0].data(), 2 * block * sizeof(double), sizeof(double));
  plan.add_send(0, right, field, Layout::contiguous(block, block)).add_receive(0, left, field, Layout::contiguous(0, block));
  plan.partition_send(0, right, 4).partition_receive(0, left, 4);
  plan.commit();
  if (bounce_anywhere(plan)) return;
  for (int round = 1; round <= 6; ++round) {
    std::vector<double>& now = arrays[round % 2];
    std::vector<double>& other = arrays[1 - round % 2];
    plan.rebind(field, now.data());
    for (std::size_t i = 0; i < block; ++i) {
      now[block + i] = value(w.rank(), i, round);
      other[i] = untouched;
    }
    for (std::size_t k = 0; k < 4; ++k) plan.pready(0, right, k);
    for (std::size_t k = 0; k < 4; ++k)
      while (!plan.parrived(0, left, k)) std::this_thread::yield();  // ranks may share cores
    for (std::size_t k = 0; k < 4; ++k) plan.wait_send(0, right, k);
    for (std::size_t i = 0; i < block; ++i) {
      ASSERT_EQ(now[i], value(left, i, round)) << "round " << round << ", ghost " << i;
      ASSERT_EQ(other[i], untouched) << "round " << round << ": the old array's ghost " << i << " was written";
    }
    w.barrier();
  }
}

TEST(PlanRebind, RefusedWhileAnExchangeIsUnderWay) {
  World& w = gwtest::world();
  MovingRing ring(w, 64, 1);
  if (bounce_anywhere(ring.plan)) return;
  ring.fill(2);
  ring.plan.start();
  GW_EXPECT_ERROR(ring.plan.rebind(ring.moving, ring.arrays[1].data()), Errc::state, "Plan::rebind",
                  "an exchange is under way; finish() before moving memory");
  ring.plan.finish();
  ring.check(2);
  ring.plan.rebind(ring.moving, ring.arrays[1].data());
  ring.fill(3);
  ring.plan.exchange();
  ring.check(3);
  w.barrier();
}

TEST(PlanRebind, RefusesSegmentsOverlapsAndBadArguments) {
  World& w = gwtest::world();
  MovingRing ring(w, 64, 1);
  GW_EXPECT_ERROR(ring.plan.rebind(ring.staying, ring.arrays[1].data()), Errc::invalid_argument, "Plan::rebind",
                  "is in Segment", "only private memory rebinds");
  GW_EXPECT_ERROR(ring.plan.rebind(Region{7}, ring.arrays[1].data()), Errc::invalid_argument,
                  "region 7 was not returned by add_memory");
  GW_EXPECT_ERROR(ring.plan.rebind(ring.moving, nullptr), Errc::invalid_argument, "new base of region 0 is null");
  // Two private regions of one array: neither may move, nor may one move onto the other.
  std::vector<double> shared(1000), other(1000), spare(600);
  Plan plan(w, {w.rank()});
  Region low = plan.add_memory(shared.data(), 600 * sizeof(double), sizeof(double));
  Region high = plan.add_memory(shared.data() + 500, 500 * sizeof(double), sizeof(double));
  Region apart = plan.add_memory(other.data(), 600 * sizeof(double), sizeof(double));
  GW_EXPECT_ERROR(plan.rebind(low, spare.data()), Errc::invalid_argument, "region 0 shares memory with region 1");
  GW_EXPECT_ERROR(plan.rebind(apart, shared.data() + 100), Errc::invalid_argument,
                  "region 2 at its new base shares memory with region 0");
  plan.rebind(apart, spare.data());  // before commit: only the base changes
  (void)high;
  w.barrier();
}

}  // namespace
