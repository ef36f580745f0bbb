// SPDX-License-Identifier: BSD-3-Clause
// Misuse catalogue: World, Segment, notifications and notified writes, allreduce.
#include <cstdint>
#include <vector>

#include "ghostwire/collective.hpp"
#include "ghostwire/segment.hpp"
#include "ghostwire/settings.hpp"
#include "ghostwire/world.hpp"
#include "misuse_catalogue.hpp"

using namespace ghostwire;
using misuse::Case;

namespace {

TEST(MisuseCatalogue, World) {
  World& world = gwtest::world();
  const int size = world.size();
  Settings negative_ranks_per_node;
  negative_ranks_per_node.ranks_per_node = -1;
  misuse::check_table("MisuseCatalogue.World", {
      {"World", "comm = MPI_COMM_NULL", Errc::invalid_argument, "communicator is MPI_COMM_NULL",
       [] { World w(MPI_COMM_NULL); }},
      {"World", "settings.ranks_per_node = -1", Errc::invalid_argument, "ranks_per_node",
       [&] { World w(MPI_COMM_WORLD, negative_ranks_per_node); }},
      {"World::node_of", "rank = size", Errc::out_of_range, "rank",
       [&] { (void)world.node_of(size); }},
      {"World::node_of", "rank = -1", Errc::out_of_range, "rank -1",
       [&] { (void)world.node_of(-1); }},
      {"World::node_rank_of", "rank = size", Errc::out_of_range, "rank",
       [&] { (void)world.node_rank_of(size); }},
      {"World::shares_memory_with", "rank = -1", Errc::out_of_range, "rank -1",
       [&] { (void)world.shares_memory_with(-1); }},
  });
  world.barrier();
}

TEST(MisuseCatalogue, Segment) {
  World& world = gwtest::world();
  const int size = world.size();
  Segment segment(world, 256, 8);
  std::vector<std::byte> buffer(512);
  misuse::check_table("MisuseCatalogue.Segment", {
      {"Segment", "notification_count = 2^26 + 1", Errc::invalid_argument, "notification_count 67108865",
       [&] { Segment s(world, 64, (std::size_t{1} << 26) + 1); }},
      {"Segment::size_of", "rank = size", Errc::out_of_range, "rank",
       [&] { (void)segment.size_of(size); }},
      {"Segment::peer_data", "rank = -1", Errc::out_of_range, "rank -1",
       [&] { (void)segment.peer_data(-1); }},
      {"Segment::put", "target = size", Errc::out_of_range, "rank",
       [&] { segment.put(size, 0, buffer.data(), 8); }},
      {"Segment::put", "offset + bytes beyond the segment", Errc::out_of_range, "bytes [",
       [&] { segment.put(0, 250, buffer.data(), 8); }},
      {"Segment::get", "bytes > segment size", Errc::out_of_range, "bytes [",
       [&] { segment.get(0, 0, buffer.data(), 512); }},
      {"Segment::get", "target = -1", Errc::out_of_range, "rank -1",
       [&] { segment.get(-1, 0, buffer.data(), 8); }},
      {"Segment::put", "source = null, bytes > 0", Errc::invalid_argument, "source is null",
       [&] { segment.put(0, 0, nullptr, 8); }},
      {"Segment::get", "destination = null, bytes > 0", Errc::invalid_argument, "destination is null",
       [&] { segment.get(0, 0, nullptr, 8); }},
  });
  world.barrier();
}

TEST(MisuseCatalogue, Notify) {
  World& world = gwtest::world();
  const int size = world.size();
  Segment segment(world, 256, 8);
  Segment other(world, 64, 4);
  std::vector<std::byte> buffer(512);
  misuse::check_table("MisuseCatalogue.Notify", {
      {"write_notify", "target = size", Errc::out_of_range, "rank",
       [&] { write_notify(buffer.data(), size, segment, 0, 8, 0, 1); }},
      {"write_notify", "notification id = count", Errc::out_of_range, "notification id 8",
       [&] { write_notify(buffer.data(), 0, segment, 0, 8, 8, 1); }},
      {"write_notify", "value = 0", Errc::invalid_argument, "notification value 0",
       [&] { write_notify(buffer.data(), 0, segment, 0, 8, 0, 0); }},
      {"write_notify", "destination bytes beyond the segment", Errc::out_of_range, "bytes [",
       [&] { write_notify(buffer.data(), 0, segment, 240, 32, 0, 1); }},
      {"write_notify", "source = null, bytes > 0", Errc::invalid_argument, "source is null",
       [&] { write_notify(nullptr, 0, segment, 0, 8, 0, 1); }},
      {"write_notify (segment source)", "source range beyond the source segment", Errc::out_of_range, "bytes [",
       [&] { write_notify(other, 60, 0, segment, 0, 8, 0, 1); }},
      {"notify", "target = -1", Errc::out_of_range, "rank -1",
       [&] { notify(-1, segment, 0, 1); }},
      {"notify", "value = 0", Errc::invalid_argument, "notification value 0",
       [&] { notify(0, segment, 0, 0); }},
      {"notify_test", "id = count", Errc::out_of_range, "notification id 8",
       [&] { (void)notify_test(segment, 8); }},
      {"notify_wait", "id = count", Errc::out_of_range, "notification id 9",
       [&] { (void)notify_wait(segment, 9); }},
      {"notify_waitsome", "count = 0", Errc::invalid_argument, "count is 0",
       [&] { (void)notify_waitsome(segment, 0, 0); }},
      {"notify_waitsome", "first + count beyond the notifications", Errc::out_of_range, "range [6",
       [&] { (void)notify_waitsome(segment, 6, 4); }},
      {"notify_reset", "id = count", Errc::out_of_range, "notification id 8",
       [&] { (void)notify_reset(segment, 8); }},
  });
  world.barrier();
}

TEST(MisuseCatalogue, Allreduce) {
  World& world = gwtest::world();
  std::vector<double> values(4, 1.0);
  std::vector<std::int64_t> integers(4, 1);
  const auto unknown = static_cast<ReduceOp>(7);
  misuse::check_table("MisuseCatalogue.Allreduce", {
      {"allreduce", "op = ReduceOp(7)", Errc::invalid_argument, "unknown ReduceOp 7",
       [&] { allreduce(world, std::span<double>(values), unknown); }},
      {"allreduce (int64)", "op = ReduceOp(7)", Errc::invalid_argument, "unknown ReduceOp 7",
       [&] { allreduce(world, std::span<std::int64_t>(integers), unknown); }},
      {"allreduce_start", "op = ReduceOp(7)", Errc::invalid_argument, "unknown ReduceOp 7",
       [&] { (void)allreduce_start(world, std::span<double>(values), unknown); }},
      {"allreduce", "while an allreduce_start is pending", Errc::state, "allreduce",
       [&] {
         PendingReduction pending = allreduce_start(world, std::span<double>(values), ReduceOp::sum);
         try {
           allreduce(world, std::span<double>(values), ReduceOp::sum);
         } catch (...) {
           pending.wait();
           throw;
         }
         pending.wait();
       }},
  });
  world.barrier();
}

}  // namespace
