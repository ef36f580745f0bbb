// SPDX-License-Identifier: BSD-3-Clause
// ghostwire::allreduce: right values, the same bits on every rank, no stale value when calls follow
// each other closely (the shared slots alternate), the MPI path for large counts, and errors.
#include <mpi.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "ghostwire/collective.hpp"
#include "ghostwire/error.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

// Every rank's copy of `values`, in rank order: to check that all ranks got the same bits.
std::vector<double> gathered(World& w, const std::vector<double>& values) {
  std::vector<double> all(values.size() * static_cast<std::size_t>(w.size()));
  MPI_Allgather(values.data(), static_cast<int>(values.size()), MPI_DOUBLE, all.data(), static_cast<int>(values.size()),
                MPI_DOUBLE, w.comm());
  return all;
}

void expect_same_bits_everywhere(World& w, const std::vector<double>& values, int call) {
  const std::vector<double> all = gathered(w, values);
  for (int r = 1; r < w.size(); ++r)
    ASSERT_EQ(std::memcmp(all.data(), all.data() + static_cast<std::size_t>(r) * values.size(), values.size() * sizeof(double)), 0)
        << "call " << call << ": rank " << r << " got other bits than rank 0";
}

}  // namespace

TEST(Allreduce, SumsExactlyAndAlikeOnEveryRankOverManyCalls) {
  World& w = gwtest::world();
  const int n = w.size();
  for (int call = 0; call < 2000; ++call) {
    std::vector<double> values(7);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = call * 64.0 + w.rank() * 8.0 + static_cast<double>(i) + 0.5;
    allreduce(w, std::span<double>(values), ReduceOp::sum);
    for (std::size_t i = 0; i < values.size(); ++i) {
      // Sum over r of (call*64 + r*8 + i + 0.5): exact in binary, so any stale slot shows.
      const double expected = n * (call * 64.0 + static_cast<double>(i) + 0.5) + 8.0 * n * (n - 1) / 2;
      ASSERT_EQ(values[i], expected) << "call " << call << " element " << i;
    }
  }
  w.barrier();
}

TEST(Allreduce, InexactSumsAreTheSameBitsOnEveryRank) {
  World& w = gwtest::world();
  for (int call = 0; call < 50; ++call) {
    std::vector<double> values(5);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = 0.1 * (w.rank() + 1) + 1e-3 * static_cast<double>(i) / (call + 3);
    double reference = 0;
    for (int r = 0; r < w.size(); ++r) reference += 0.1 * (r + 1) + 1e-3 * 2.0 / (call + 3);
    allreduce(w, std::span<double>(values), ReduceOp::sum);
    EXPECT_NEAR(values[2], reference, 1e-12 * std::fabs(reference));
    expect_same_bits_everywhere(w, values, call);
  }
}

TEST(Allreduce, MinAndMaxOfIntegers) {
  World& w = gwtest::world();
  for (int call = 0; call < 100; ++call) {
    std::vector<std::int64_t> low{static_cast<std::int64_t>(w.rank()) * 3 - call, -7};
    std::vector<std::int64_t> high = low;
    allreduce(w, std::span<std::int64_t>(low), ReduceOp::min);
    allreduce(w, std::span<std::int64_t>(high), ReduceOp::max);
    EXPECT_EQ(low[0], -call);
    EXPECT_EQ(high[0], static_cast<std::int64_t>(w.size() - 1) * 3 - call);
    EXPECT_EQ(low[1], -7);
    EXPECT_EQ(high[1], -7);
  }
}

TEST(Allreduce, LargeCountsGoThroughMpi) {
  World& w = gwtest::world();
  std::vector<double> values(3000);  // 24 KB: more than the shared slots hold
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i) + w.rank();
  allreduce(w, std::span<double>(values), ReduceOp::max);
  for (std::size_t i = 0; i < values.size(); i += 499) EXPECT_EQ(values[i], static_cast<double>(i) + w.size() - 1);
  std::vector<double> none;
  allreduce(w, std::span<double>(none), ReduceOp::sum);  // nothing to do, on every rank
}

TEST(Allreduce, UnknownOperationIsAnError) {
  World& w = gwtest::world();
  std::vector<double> values{1.0};
  GW_EXPECT_ERROR(allreduce(w, std::span<double>(values), static_cast<ReduceOp>(9)), Errc::invalid_argument,
                  "unknown ReduceOp 9");
  w.barrier();
}

// Split phase: the contribution is published at start and combined at wait, with other traffic in
// between (here a ring shift, as a halo exchange would be); exact sums show any stale slot.
TEST(AllreduceStart, SumsExactlyWithOtherTrafficBetweenStartAndWait) {
  World& w = gwtest::world();
  const int n = w.size(), right = (w.rank() + 1) % n, left = (w.rank() + n - 1) % n;
  for (int call = 0; call < 2000; ++call) {
    std::vector<double> values(3);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = call * 64.0 + w.rank() * 8.0 + static_cast<double>(i) + 0.5;
    PendingReduction pending = allreduce_start(w, std::span<double>(values), ReduceOp::sum);
    EXPECT_TRUE(pending.pending());
    int sent = call * n + w.rank(), received = -1;
    MPI_Sendrecv(&sent, 1, MPI_INT, right, 5, &received, 1, MPI_INT, left, 5, w.comm(), MPI_STATUS_IGNORE);
    ASSERT_EQ(received, call * n + left);
    pending.wait();
    EXPECT_FALSE(pending.pending());
    for (std::size_t i = 0; i < values.size(); ++i) {
      const double expected = n * (call * 64.0 + static_cast<double>(i) + 0.5) + 8.0 * n * (n - 1) / 2;
      ASSERT_EQ(values[i], expected) << "call " << call << " element " << i;
    }
  }
}

TEST(AllreduceStart, GivesTheBitsOfAllreduceAndMixesWithIt) {
  World& w = gwtest::world();
  for (int call = 0; call < 50; ++call) {
    std::vector<double> split(4), blocking(4);
    for (std::size_t i = 0; i < split.size(); ++i) split[i] = blocking[i] = 0.1 * (w.rank() + 1) + 1e-3 * static_cast<double>(i) / (call + 3);
    allreduce_start(w, std::span<double>(split), ReduceOp::sum).wait();
    allreduce(w, std::span<double>(blocking), ReduceOp::sum);
    ASSERT_EQ(std::memcmp(split.data(), blocking.data(), split.size() * sizeof(double)), 0) << "call " << call;
    expect_same_bits_everywhere(w, split, call);
  }
}

TEST(AllreduceStart, LargeCountsAndIntegersGoThroughMpiIallreduce) {
  World& w = gwtest::world();
  std::vector<double> values(3000);  // more than the shared slots hold
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i) + w.rank();
  std::vector<std::int64_t> low{static_cast<std::int64_t>(w.rank())};
  {
    PendingReduction pending = allreduce_start(w, std::span<double>(values), ReduceOp::max);
    w.barrier();
  }  // destroying the handle waits
  for (std::size_t i = 0; i < values.size(); i += 499) EXPECT_EQ(values[i], static_cast<double>(i) + w.size() - 1);
  allreduce_start(w, std::span<std::int64_t>(low), ReduceOp::min).wait();
  EXPECT_EQ(low[0], 0);
}

TEST(AllreduceStart, OneReductionAtATimeIsEnforced) {
  World& w = gwtest::world();
  std::vector<double> first{1.0}, second{2.0};
  PendingReduction pending = allreduce_start(w, std::span<double>(first), ReduceOp::sum);
  GW_EXPECT_ERROR((void)allreduce_start(w, std::span<double>(second), ReduceOp::sum), Errc::state,
                  "allreduce_start: a reduction started with allreduce_start is still under way");
  GW_EXPECT_ERROR(allreduce(w, std::span<double>(second), ReduceOp::sum), Errc::state,
                  "allreduce: a reduction started with allreduce_start is still under way");
  pending.wait();
  EXPECT_EQ(first[0], static_cast<double>(w.size()));
  allreduce(w, std::span<double>(second), ReduceOp::sum);  // usable again
  EXPECT_EQ(second[0], 2.0 * w.size());
}
