// SPDX-License-Identifier: BSD-3-Clause
// Misuse catalogue: Plan and Layout (built by hand), and the unstructured plan.
#include <sys/mman.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "ghostwire/layout.hpp"
#include "ghostwire/plan.hpp"
#include "ghostwire/segment.hpp"
#include "ghostwire/world.hpp"
#include "misuse_catalogue.hpp"

using namespace ghostwire;
using misuse::Case;

namespace {

TEST(MisuseCatalogue, PlanAndLayout) {
  World& world = gwtest::world();
  const int size = world.size();
  const int me = world.rank();
  Segment segment(world, 256, 8);
  World other_world(MPI_COMM_WORLD);
  Segment foreign(other_world, 64, 4);
  std::vector<double> private_memory(8);

  // A plan with this rank as its own neighbour: one channel, nothing committed yet.
  Plan open_plan(world, {me}, 1);
  const Region doubles = open_plan.add_memory(private_memory.data(), 64, sizeof(double));  // 8 elements
  // A committed plan (a channel whose send and receive are both this rank).
  Plan committed(world, {me}, 2);
  const Region in_segment = committed.add_memory(segment, sizeof(double), 0, 128);
  committed.add_send(0, me, in_segment, Layout::contiguous(0, 4));
  committed.add_receive(0, me, in_segment, Layout::contiguous(8, 4));
  committed.commit();
  // Wrong element size: the receiver's region counts 4-byte elements where the sender sends doubles.
  const auto element_size_mismatch = [&] {
    Plan plan(world, {me}, 1);
    const Region send_region = plan.add_memory(private_memory.data(), 32, sizeof(double));
    const Region receive_region = plan.add_memory(private_memory.data() + 4, 32, sizeof(float));
    plan.add_send(0, me, send_region, Layout::contiguous(0, 4));
    plan.add_receive(0, me, receive_region, Layout::contiguous(0, 4));
    plan.commit();
  };

  // GHOSTWIRE_INTRA_PATH naming no registered path: refused by the commit, on every rank.
  const auto unknown_path = [&] {
    Settings settings = world.settings();
    settings.intra_path = IntraPath::named;
    settings.intra_path_name = "sideways";
    World named(world.comm(), settings);
    Plan plan(named, {me}, 1);
    const Region region = plan.add_memory(private_memory.data(), 64, sizeof(double));
    plan.add_send(0, me, region, Layout::contiguous(0, 4)).add_receive(0, me, region, Layout::contiguous(4, 4));
    plan.commit();
  };

  const std::size_t extents2[] = {4, 4};
  const std::ptrdiff_t strides1[] = {1};
  misuse::check_table("MisuseCatalogue.PlanAndLayout", {
      {"Plan", "channels = 0", Errc::invalid_argument, "channels is 0", [&] { Plan p(world, {me}, 0); }},
      {"Plan", "neighbour rank = size", Errc::out_of_range, "neighbour rank",
       [&] { Plan p(world, {size}, 1); }},
      {"Plan", "neighbour rank = -1", Errc::out_of_range, "neighbour rank -1", [&] { Plan p(world, {-1}, 1); }},
      {"Plan", "neighbour listed twice", Errc::invalid_argument, "listed twice", [&] { Plan p(world, {me, me}, 1); }},
      {"Plan::add_memory (segment)", "element_size = 0", Errc::invalid_argument, "element_size is 0",
       [&] { (void)open_plan.add_memory(segment, 0); }},
      {"Plan::add_memory (segment)", "offset beyond the segment", Errc::out_of_range, "offset 300",
       [&] { (void)open_plan.add_memory(segment, 8, 300); }},
      {"Plan::add_memory (segment)", "bytes beyond the segment", Errc::out_of_range, "bytes [128, 384)",
       [&] { (void)open_plan.add_memory(segment, 8, 128, 256); }},
      {"Plan::add_memory (segment)", "segment of another World", Errc::invalid_argument, "another World",
       [&] { (void)open_plan.add_memory(foreign, 8); }},
      {"Plan::add_memory (pointer)", "base = null, bytes > 0", Errc::invalid_argument, "base is null",
       [&] { (void)open_plan.add_memory(nullptr, 64, 8); }},
      {"Plan::add_memory (pointer)", "element_size = 0", Errc::invalid_argument, "element_size is 0",
       [&] { (void)open_plan.add_memory(private_memory.data(), 64, 0); }},
      {"Plan::add_send", "channel = channels", Errc::out_of_range, "channel 1",
       [&] { open_plan.add_send(1, me, doubles, Layout::contiguous(0, 1)); }},
      {"Plan::add_send", "neighbour not in the plan", Errc::out_of_range, "rank",
       [&] { open_plan.add_send(0, size, doubles, Layout::contiguous(0, 1)); }},
      {"Plan::add_receive", "region not from this plan", Errc::invalid_argument, "region 5",
       [&] { open_plan.add_receive(0, me, Region{5}, Layout::contiguous(0, 1)); }},
      {"Plan::add_receive", "layout beyond the region (wrong element count)", Errc::out_of_range, "layout",
       [&] { open_plan.add_receive(0, me, doubles, Layout::contiguous(4, 8)); }},
      {"Plan::add_send", "after commit", Errc::state, "already committed",
       [&] { committed.add_send(1, me, in_segment, Layout::contiguous(0, 1)); }},
      {"Plan::acknowledge_by_reply", "after commit", Errc::state, "acknowledge_by_reply",
       [&] { committed.acknowledge_by_reply(); }},
      {"Plan::commit", "twice", Errc::state, "already committed", [&] { committed.commit(); }},
      {"Plan::commit", "receive element size differs from the send's", Errc::mismatch, "",
       element_size_mismatch},
      {"Plan::commit", "GHOSTWIRE_INTRA_PATH names no path", Errc::invalid_argument, "names no message path",
       unknown_path},
      {"Plan::rebind", "region not from this plan", Errc::invalid_argument, "region 9 was not returned",
       [&] { open_plan.rebind(Region{9}, private_memory.data()); }},
      {"Plan::rebind", "base = null", Errc::invalid_argument, "new base of region 0 is null",
       [&] { open_plan.rebind(doubles, nullptr); }},
      {"Plan::rebind", "region in a Segment", Errc::invalid_argument, "only private memory rebinds",
       [&] { committed.rebind(in_segment, private_memory.data()); }},
      {"Plan::rebind", "onto another region's memory", Errc::invalid_argument, "shares memory with region 0",
       [&] {
         std::vector<double> array(32);
         Plan plan(world, {me}, 1);
         (void)plan.add_memory(array.data(), 64, sizeof(double));
         const Region other = plan.add_memory(array.data() + 16, 64, sizeof(double));
         plan.rebind(other, array.data() + 4);
       }},
      {"Plan::rebind", "between start() and finish()", Errc::state, "an exchange is under way",
       [&] {
         std::vector<double> array(8), other(8);
         Plan plan(world, {me}, 1);
         const Region region = plan.add_memory(array.data(), 64, sizeof(double));
         plan.add_send(0, me, region, Layout::contiguous(0, 4)).add_receive(0, me, region, Layout::contiguous(4, 4));
         plan.commit();
         plan.start();
         struct Finish {
           Plan& plan;
           ~Finish() { plan.finish(); }
         } finish{plan};
         plan.rebind(region, other.data());
       }},
      {"Plan::send", "before commit", Errc::state, "not committed", [&] { open_plan.send(0, me); }},
      {"Plan::exchange", "before commit", Errc::state, "not committed", [&] { open_plan.exchange(); }},
      {"Plan::send", "channel = channels", Errc::out_of_range, "channel 2", [&] { committed.send(2, me); }},
      {"Plan::send", "neighbour not in the plan", Errc::out_of_range, "rank", [&] { committed.send(0, size); }},
      {"Plan::send", "slot without a send layout", Errc::state, "no send layout", [&] { committed.send(1, me); }},
      {"Plan::test_recv", "slot without a receive layout", Errc::state, "no receive layout",
       [&] { (void)committed.test_recv(1, me); }},
      {"Plan::wait_send", "channel = channels", Errc::out_of_range, "channel 7",
       [&] { committed.wait_send(7, me); }},
      {"Plan::view", "neighbour = -1", Errc::out_of_range, "rank -1", [&] { (void)committed.view(0, -1); }},
      {"Plan::try_send", "slot without a send layout", Errc::state, "no send layout",
       [&] { (void)committed.try_send(1, me); }},
      {"Plan::read_in_place", "slot without a receive layout", Errc::state, "no receive layout",
       [&] { committed.read_in_place(1, me, [](const std::byte*) {}); }},
      {"Plan::prefetch_send", "neighbour = -1", Errc::out_of_range, "rank -1",
       [&] { committed.prefetch_send(0, -1); }},
      {"Plan::intra_path", "after commit", Errc::state, "already committed",
       [&] { (void)committed.intra_path("staged"); }},
      {"Plan::intra_path", "empty name", Errc::invalid_argument, "the name is empty",
       [&] { (void)open_plan.intra_path(""); }},
      {"Plan::start", "channel = channels", Errc::out_of_range, "channel 2", [&] { committed.start(2); }},
      {"Plan::exchange", "channel = channels", Errc::out_of_range, "channel 3", [&] { committed.exchange(3); }},
      {"Plan::exchange", "on a moved-from plan (use after destroy)", Errc::state, "moved from",
       [&] {
         Plan first(world, {me}, 1);
         Plan second = std::move(first);
         first.exchange();  // NOLINT(bugprone-use-after-move): the misuse under test
       }},
      {"Plan::add_memory", "on a moved-from plan (use after destroy)", Errc::state, "moved from",
       [&] {
         Plan first(world, {me}, 1);
         Plan second(std::move(first));
         (void)first.add_memory(private_memory.data(), 64, 8);  // NOLINT(bugprone-use-after-move)
       }},
      {"Layout::box", "4 dimensions", Errc::invalid_argument, "4 dimensions",
       [&] { (void)Layout::box(0, {2, 2, 2, 2}, {1, 2, 4, 8}); }},
      {"Layout::box", "extents and strides differ in count", Errc::invalid_argument, "2 extents but 1 strides",
       [&] { (void)Layout::box(0, std::span<const std::size_t>(extents2), std::span<const std::ptrdiff_t>(strides1)); }},
      {"Layout::box", "negative stride before the region", Errc::out_of_range, "negative strides",
       [&] { (void)Layout::box(2, {4}, {-1}); }},
      {"Layout::box", "extent x stride past the largest index", Errc::out_of_range, "reaches past the largest",
       [&] { (void)Layout::box(0, {std::size_t{1} << 40, std::size_t{1} << 40}, {1, std::ptrdiff_t{1} << 40}); }},
      {"Layout::ranges", "start + count past the largest index", Errc::out_of_range, "reaches past the largest",
       [&] { (void)Layout::ranges({{static_cast<std::size_t>(-2), 4}}); }},
  });
  committed.exchange();  // the plan still works after all that
  world.barrier();
}

// Partitions and a team's share of an exchange (docs/plans.md, "Partitions" and "Threads").
TEST(MisuseCatalogue, PlanPartitionsAndShares) {
  World& world = gwtest::world();
  const int me = world.rank();
  std::vector<double> memory(16);
  Plan open_plan(world, {me}, 1);
  const Region region = open_plan.add_memory(memory.data(), 128, sizeof(double));
  open_plan.add_send(0, me, region, Layout::contiguous(0, 6)).add_receive(0, me, region, Layout::contiguous(8, 6));
  Plan committed(world, {me}, 1);
  const Region mine = committed.add_memory(memory.data(), 128, sizeof(double));
  committed.add_send(0, me, mine, Layout::contiguous(0, 6)).add_receive(0, me, mine, Layout::contiguous(8, 6));
  committed.partition_send(0, me, 3).partition_receive(0, me, 3);
  committed.commit();
  const std::vector<std::size_t> no_partitions, an_empty_one{3, 0, 3}, too_few{2, 2}, too_many{2, 2, 1, 1};
  const auto commit_with = [&](const std::vector<std::size_t>& send, const std::vector<std::size_t>& receive) {
    Plan plan(world, {me}, 1);
    const Region r = plan.add_memory(memory.data(), 128, sizeof(double));
    plan.add_send(0, me, r, Layout::contiguous(0, 6)).add_receive(0, me, r, Layout::contiguous(8, 6));
    plan.partition_send(0, me, send).partition_receive(0, me, receive);
    plan.commit();
  };
  misuse::check_table("MisuseCatalogue.PlanPartitionsAndShares", {
      {"Plan::partition_send", "count = 0", Errc::invalid_argument, "count is 0",
       [&] { open_plan.partition_send(0, me, std::size_t{0}); }},
      {"Plan::partition_send", "no element counts", Errc::invalid_argument, "no partitions given",
       [&] { open_plan.partition_send(0, me, no_partitions); }},
      {"Plan::partition_receive", "a partition of 0 elements", Errc::invalid_argument, "partition 1 has 0 elements",
       [&] { open_plan.partition_receive(0, me, an_empty_one); }},
      {"Plan::partition_send", "channel = channels", Errc::out_of_range, "channel 1",
       [&] { open_plan.partition_send(1, me, std::size_t{2}); }},
      {"Plan::partition_send", "after commit", Errc::state, "already committed",
       [&] { committed.partition_send(0, me, std::size_t{2}); }},
      {"Plan::commit", "partitions holding fewer elements than the message", Errc::invalid_argument,
       "partitions hold 4 elements but the message has 6", [&] { commit_with(too_few, too_few); }},
      {"Plan::commit", "more partitions than elements", Errc::invalid_argument, "cannot be cut into 7 partitions",
       [&] {
         Plan plan(world, {me}, 1);
         const Region r = plan.add_memory(memory.data(), 128, sizeof(double));
         plan.add_send(0, me, r, Layout::contiguous(0, 6)).add_receive(0, me, r, Layout::contiguous(8, 6));
         plan.partition_send(0, me, 7).partition_receive(0, me, 7);
         plan.commit();
       }},
      {"Plan::commit", "sender and receiver cut differently", Errc::mismatch, "sends it in 4 partition(s)",
       [&] { commit_with(too_many, std::vector<std::size_t>{3, 3}); }},
      {"Plan::pready", "partition = partitions", Errc::out_of_range, "partition 3 is not in [0, 3)",
       [&] { committed.pready(0, me, 3); }},
      {"Plan::parrived", "partition = partitions", Errc::out_of_range, "partition 5 is not in [0, 3)",
       [&] { (void)committed.parrived(0, me, 5); }},
      {"Plan::wait_send (partition)", "partition = partitions", Errc::out_of_range, "partition 4",
       [&] { committed.wait_send(0, me, 4); }},
      {"Plan::pready", "before commit", Errc::state, "not committed", [&] { open_plan.pready(0, me, 0); }},
      {"Plan::exchange_share", "thread = threads", Errc::out_of_range, "thread 2 is not in [0, 2)",
       [&] { committed.exchange_share(2, 2); }},
      {"Plan::exchange_share", "threads = 0", Errc::out_of_range, "not in [0, 0)",
       [&] { committed.exchange_share(0, 0); }},
      {"Plan::test_recv", "between start() and finish()", Errc::state, "belongs to the exchange start() began",
       [&] {
         committed.start();
         struct Finish {
           Plan& plan;
           ~Finish() { plan.finish(); }
         } finish{committed};
         (void)committed.test_recv(0, me);
       }},
      {"Plan::pready", "again before the receiver took the partition's last message", Errc::state,
       "channel 0 (partition 1)",
       [&] {
         committed.pready(0, me, 1);
         committed.pready(0, me, 1);
       }},
  });
  while (!committed.parrived(0, me, 1)) {
  }
  committed.exchange();  // every partition: the plan still works after all that
  world.barrier();
}

// Every accessor of a moved-from plan, and a message one MPI message cannot carry between nodes.
TEST(MisuseCatalogue, PlanLifetimeAndLimits) {
  World& world = gwtest::world();
  const int me = world.rank();
  Plan first(world, {me}, 1);
  Plan second(std::move(first));
  // NOLINTBEGIN(bugprone-use-after-move): the misuse under test
  std::vector<Case> table = {
      {"Plan::committed", "on a moved-from plan", Errc::state, "moved from", [&] { (void)first.committed(); }},
      {"Plan::world", "on a moved-from plan", Errc::state, "moved from", [&] { (void)first.world(); }},
      {"Plan::neighbours", "on a moved-from plan", Errc::state, "moved from", [&] { (void)first.neighbours(); }},
      {"Plan::channels", "on a moved-from plan", Errc::state, "moved from", [&] { (void)first.channels(); }},
      {"Plan::id", "on a moved-from plan", Errc::state, "moved from", [&] { (void)first.id(); }},
      {"Plan::describe", "on a moved-from plan", Errc::state, "moved from", [&] { (void)first.describe(); }},
      {"Plan::view", "on a moved-from plan", Errc::state, "moved from", [&] { (void)first.view(0, me); }},
      {"Plan::test_send", "on a moved-from plan", Errc::state, "moved from", [&] { (void)first.test_send(0, me); }},
      {"Plan::commit", "on a moved-from plan", Errc::state, "moved from", [&] { first.commit(); }},
  };
  // NOLINTEND(bugprone-use-after-move)
  // Every rank its own node: a two-sided message of more than INT_MAX bytes to the next rank.
  Settings separate = world.settings();
  separate.ranks_per_node = 1;
  World nodes(world.comm(), separate);
  const std::size_t huge = std::size_t{1} << 31;  // INT_MAX + 1 bytes; address space only
  void* memory = mmap(nullptr, huge, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(memory, MAP_FAILED);
  if (nodes.size() > 1 && separate.transport == Transport::p2p)
    table.push_back({"Plan::commit", "a message over INT_MAX bytes between nodes", Errc::invalid_argument, "INT_MAX", [&] {
                       const int right = (me + 1) % nodes.size(), left = (me + nodes.size() - 1) % nodes.size();
                       std::vector<int> neighbours{right};
                       if (left != right) neighbours.push_back(left);
                       Plan plan(nodes, neighbours, 1);
                       const Region region = plan.add_memory(memory, huge, 1);
                       plan.add_send(0, right, region, Layout::contiguous(0, huge));
                       plan.add_receive(0, left, region, Layout::contiguous(0, huge));
                       plan.commit();
                     }});
  misuse::check_table("MisuseCatalogue.PlanLifetimeAndLimits", table);
  munmap(memory, huge);
  world.barrier();
}

TEST(MisuseCatalogue, UnstructuredPlan) {
  World& world = gwtest::world();
  const int size = world.size();
  Segment owned(world, 10 * sizeof(double), 4);
  std::vector<double> ghosts(4);
  const auto make = [&](GhostMap map, std::size_t owned_count, std::size_t element_size = sizeof(double),
                        std::size_t offset = 0, void* ghost_memory = nullptr) {
    Plan plan = make_unstructured_plan(world, owned, offset, owned_count,
                                       ghost_memory ? ghost_memory : ghosts.data(), map, element_size);
  };
  misuse::check_table("MisuseCatalogue.UnstructuredPlan", {
      {"make_unstructured_plan", "owner rank = size", Errc::out_of_range, "owner rank",
       [&] { make({{size}, {0}}, 10); }},
      {"make_unstructured_plan", "owner rank = -1", Errc::out_of_range, "owner rank -1",
       [&] { make({{-1}, {0}}, 10); }},
      {"make_unstructured_plan", "index beyond the owner's elements", Errc::out_of_range, "asks for element 10",
       [&] { make({{0}, {10}}, 10); }},
      {"make_unstructured_plan", "owners and indices of different lengths", Errc::out_of_range, "1 owners but 2 indices",
       [&] { make({{0}, {0, 1}}, 10); }},
      {"make_unstructured_plan", "element_size = 0", Errc::invalid_argument, "element_size",
       [&] { make({{0}, {0}}, 10, 0); }},
      {"make_unstructured_plan", "owned elements beyond the segment", Errc::out_of_range, "owned",
       [&] { make({{0}, {0}}, 11); }},
      {"make_unstructured_plan", "ghosts = null with ghost entries", Errc::invalid_argument, "ghosts",
       [&] {
         Plan plan = make_unstructured_plan(world, owned, 0, 10, nullptr, GhostMap{{0}, {0}}, sizeof(double));
       }},
  });
  world.barrier();
}

}  // namespace
