// SPDX-License-Identifier: BSD-3-Clause
// What a World does when MPI can or cannot create one-sided windows between its nodes (Open MPI 4.1
// on its defaults between hosts cannot: docs/running.md). Run on two nodes or more:
//   windows_between_nodes --expect=available   one-sided puts and gets reach other nodes, and a
//                                              World with the rma transport is made
//   windows_between_nodes --expect=refused     notified writes still reach other nodes (they travel
//                                              as messages); a put or get to another node raises
//                                              Errc::unsupported naming what to set, and a World
//                                              with the rma transport is refused on every rank
// Prints "windows between nodes: <expectation> as expected" when every check held on every rank.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ghostwire/error.hpp"
#include "ghostwire/segment.hpp"
#include "ghostwire/world.hpp"

namespace gw = ghostwire;

namespace {

int failures = 0;

void check(bool condition, const gw::World& world, const std::string& what) {
  if (condition) return;
  std::fprintf(stderr, "rank %d: FAILED: %s\n", world.rank(), what.c_str());
  ++failures;
}

// The part of the message that names the fix: the Open MPI setting, or the generic advice.
bool names_the_fix(const std::string& message) {
#ifdef OPEN_MPI
  return message.find("export OMPI_MCA_osc=sm,ucx") != std::string::npos;
#else
  return message.find("one-sided communication between nodes") != std::string::npos;
#endif
}

std::vector<int> ranks_on_other_nodes(const gw::World& world) {
  std::vector<int> ranks;
  for (int r = 0; r < world.size(); ++r)
    if (!world.shares_memory_with(r)) ranks.push_back(r);
  return ranks;
}

// Every rank sends its number to every rank on another node, as a notified write.
void notified_writes_arrive(gw::World& world, gw::Segment& segment, const std::vector<int>& others) {
  const auto mine = static_cast<std::uint64_t>(world.rank()) + 1000;
  const std::size_t slot = sizeof mine;
  for (int target : others)
    gw::write_notify(&mine, target, segment, static_cast<std::size_t>(world.rank()) * slot, slot,
                     static_cast<gw::NotificationId>(world.rank()), 1);
  for (int source : others) {
    gw::notify_wait(segment, static_cast<gw::NotificationId>(source));
    std::uint64_t got = 0;
    std::memcpy(&got, segment.data() + static_cast<std::size_t>(source) * slot, slot);
    check(got == static_cast<std::uint64_t>(source) + 1000, world,
          "notified write from rank " + std::to_string(source) + " carried " + std::to_string(got));
  }
}

// A one-sided call to another node: it works, or raises Errc::unsupported naming the fix.
template <class Call>
void one_sided(gw::World& world, bool available, const char* name, Call&& call) {
  try {
    call();
    check(available, world, std::string(name) + " to another node succeeded, but windows were expected to be refused");
  } catch (const gw::Error& error) {
    const std::string message = error.what();
    check(!available, world, std::string(name) + " to another node failed: " + message);
    check(error.code() == gw::Errc::unsupported, world, std::string(name) + " raised " + gw::errc_name(error.code()));
    check(message.find("needs a window between nodes") != std::string::npos && names_the_fix(message), world,
          std::string(name) + "'s message does not say what to set: " + message);
  }
}

void puts_and_gets(gw::World& world, gw::Segment& segment, const std::vector<int>& others, bool available) {
  const std::size_t region = static_cast<std::size_t>(world.size()) * sizeof(std::uint64_t);
  const auto mine = static_cast<std::uint64_t>(world.rank()) + 2000;
  for (int target : others)
    one_sided(world, available, "Segment::put", [&] {
      segment.put(target, region + static_cast<std::size_t>(world.rank()) * sizeof mine, &mine, sizeof mine);
    });
  world.barrier();  // every put is complete at its target when put returns
  // Reads back what this rank put there.
  for (int source : others)
    one_sided(world, available, "Segment::get", [&] {
      std::uint64_t got = 0;
      segment.get(source, region + static_cast<std::size_t>(world.rank()) * sizeof got, &got, sizeof got);
      check(got == mine, world, "Segment::get from rank " + std::to_string(source) + " read " + std::to_string(got));
    });
  // And what the others put here arrived.
  for (int source : others) {
    std::uint64_t got = 0;
    std::memcpy(&got, segment.data() + region + static_cast<std::size_t>(source) * sizeof got, sizeof got);
    const std::uint64_t expected = available ? static_cast<std::uint64_t>(source) + 2000 : 0;
    check(got == expected, world, "rank " + std::to_string(source) + "'s put left " + std::to_string(got));
  }
  world.barrier();
}

// A World with the rma transport: made, or refused on every rank together with the fix named.
void rma_world(gw::World& world, bool available) {
  gw::Settings settings = world.settings();
  settings.transport = gw::Transport::rma;
  int refused = 0;
  try {
    gw::World rma(MPI_COMM_WORLD, settings);
    check(available, world, "a World with the rma transport was made, but windows were expected to be refused");
  } catch (const gw::Error& error) {
    refused = 1;
    const std::string message = error.what();
    check(!available, world, std::string("a World with the rma transport was refused: ") + message);
    check(error.code() == gw::Errc::unsupported && names_the_fix(message) &&
              message.find("GHOSTWIRE_TRANSPORT=rma") != std::string::npos,
          world, "the rma World's refusal does not name the transport and what to set: " + message);
  }
  int everywhere = 0;
  MPI_Allreduce(&refused, &everywhere, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  check(everywhere == 0 || everywhere == world.size(), world,
        std::to_string(everywhere) + " of " + std::to_string(world.size()) + " ranks refused the rma World");
}

}  // namespace

int main(int argc, char** argv) {
  const std::string expect = argc > 1 ? argv[1] : "";
  if (expect != "--expect=available" && expect != "--expect=refused") {
    std::fprintf(stderr, "usage: windows_between_nodes --expect=available|refused\n");
    return 2;
  }
  const bool available = expect == "--expect=available";
  {
    gw::World world;
    if (world.node_count() < 2) {
      std::fprintf(stderr, "windows_between_nodes: needs two nodes or more (real or emulated), got %d\n",
                   world.node_count());
      return 2;
    }
    const std::vector<int> others = ranks_on_other_nodes(world);
    gw::Segment segment(world, 2 * static_cast<std::size_t>(world.size()) * sizeof(std::uint64_t),
                        static_cast<std::size_t>(world.size()));
    notified_writes_arrive(world, segment, others);
    puts_and_gets(world, segment, others, available);
    rma_world(world, available);
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (world.rank() == 0 && total == 0)
      std::printf("windows between nodes: %s as expected\n", available ? "available" : "refused");
    failures = total;
  }
  return failures == 0 ? 0 : 1;
}
