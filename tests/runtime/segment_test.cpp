// SPDX-License-Identifier: BSD-3-Clause
#include <mpi.h>

#include <cstdint>
#include <numeric>

#include "ghostwire/error.hpp"
#include "ghostwire/segment.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {
// A value that differs for every (owner, index), so a misplaced byte shows.
std::uint64_t stamp(int owner, std::size_t index) { return (static_cast<std::uint64_t>(owner) << 40) ^ (index * 2654435761u); }
}  // namespace

TEST(Segment, PartsArePageAlignedAndZeroed) {
  World& w = gwtest::world();
  Segment segment(w, 1000 + 8 * static_cast<std::size_t>(w.rank()));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(segment.data()) % 4096, 0u);
  EXPECT_EQ(segment.size(), 1000u + 8 * static_cast<std::size_t>(w.rank()));
  for (int r = 0; r < w.size(); ++r) EXPECT_EQ(segment.size_of(r), 1000u + 8 * static_cast<std::size_t>(r));
  for (std::size_t i = 0; i < segment.size(); ++i) ASSERT_EQ(segment.data()[i], std::byte{0});
}

TEST(Segment, IdsAgreeAcrossRanks) {
  World& w = gwtest::world();
  Segment a(w, 64), b(w, 64);
  EXPECT_EQ(b.id(), a.id() + 1);
  int ids[2] = {a.id(), -a.id()};
  MPI_Allreduce(MPI_IN_PLACE, ids, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(ids[0], -ids[1]);
}

TEST(Segment, NodePeersSeeEachOthersMemoryDirectly) {
  World& w = gwtest::world();
  Segment segment(w, 4096 * sizeof(std::uint64_t));
  auto mine = segment.as<std::uint64_t>();
  for (std::size_t i = 0; i < mine.size(); ++i) mine[i] = stamp(w.rank(), i);
  w.barrier();
  for (int r = 0; r < w.size(); ++r) {
    std::byte* peer = segment.peer_data(r);
    if (!w.shares_memory_with(r)) {
      EXPECT_EQ(peer, nullptr) << "rank " << r << " is on another node";
      continue;
    }
    ASSERT_NE(peer, nullptr) << "rank " << r;
    auto* values = reinterpret_cast<const std::uint64_t*>(peer);
    for (std::size_t i = 0; i < mine.size(); ++i) ASSERT_EQ(values[i], stamp(r, i)) << "rank " << r << " index " << i;
  }
  w.barrier();
}

TEST(Segment, PutAndGetReachEveryRank) {
  World& w = gwtest::world();
  const std::size_t slot = 512;  // uint64 per writer
  Segment segment(w, slot * sizeof(std::uint64_t) * static_cast<std::size_t>(w.size()));
  std::vector<std::uint64_t> out(slot), back(slot);
  for (int target = 0; target < w.size(); ++target) {
    for (std::size_t i = 0; i < slot; ++i) out[i] = stamp(w.rank(), i) + static_cast<std::uint64_t>(target);
    segment.put(target, static_cast<std::size_t>(w.rank()) * slot * 8, out.data(), slot * 8);
  }
  w.barrier();
  for (int target = 0; target < w.size(); ++target) {
    for (int writer = 0; writer < w.size(); ++writer) {
      segment.get(target, static_cast<std::size_t>(writer) * slot * 8, back.data(), slot * 8);
      for (std::size_t i = 0; i < slot; ++i)
        ASSERT_EQ(back[i], stamp(writer, i) + static_cast<std::uint64_t>(target))
            << "target " << target << " writer " << writer << " index " << i;
    }
  }
  w.barrier();
}

TEST(Segment, OutOfRangeAccessNamesTheRange) {
  World& w = gwtest::world();
  Segment segment(w, 256);
  std::uint64_t value = 1;
  GW_EXPECT_ERROR(segment.put(0, 252, &value, 8), Errc::out_of_range, "[252, 260)", "256 bytes");
  std::string unknown = "rank " + std::to_string(w.size());
  GW_EXPECT_ERROR(segment.get(w.size(), 0, &value, 8), Errc::out_of_range, unknown.c_str(), "is not in [0,");
  GW_EXPECT_ERROR(segment.size_of(-1), Errc::out_of_range, "-1");
  w.barrier();
}

TEST(Segment, NotificationCountMismatchFailsOnEveryRank) {
  World& w = gwtest::world();
  if (w.size() == 1) GTEST_SKIP() << "needs two ranks to disagree";
  GW_EXPECT_ERROR(Segment(w, 64, 16 + static_cast<std::size_t>(w.rank())), Errc::mismatch, "notification_count",
                  "differs between ranks");
  // The world is still usable afterwards: the failed constructor made no segment.
  Segment fine(w, 64);
  EXPECT_GE(fine.id(), 0);
}
