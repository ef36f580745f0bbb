// SPDX-License-Identifier: BSD-3-Clause
// Misuse catalogue: threads on one plan (docs/plans.md, "Threads"). Two threads on the same slot:
// the second gets Errc::state naming the slot, at any thread level, instead of racing on its
// counters. A slot between nodes from a thread other than the main one while MPI provides
// MPI_THREAD_SINGLE (the test main initialises MPI with MPI_Init): Errc::state naming the level.
//
// Two ranks: rank 0's main thread waits in wait_recv for a message rank 1 sends only after a
// second; meanwhile rank 0's other thread asks for the same message. One rank: nothing to wait
// for, skip.
#include <chrono>
#include <thread>

#include "ghostwire/plan.hpp"
#include "misuse_catalogue.hpp"

using namespace ghostwire;

namespace {

// An error's code and text, caught on another thread.
struct Caught {
  int code = -1;
  std::string message;
};

template <class Call>
Caught on_other_thread(Call&& call) {
  Caught caught;
  std::thread other([&] {
    try {
      call();
    } catch (const Error& error) {
      caught = {static_cast<int>(error.code()), error.what()};
    }
  });
  other.join();
  return caught;
}

TEST(MisuseCatalogue, PlanFromTwoThreads) {
  World& world = gwtest::world();
  if (world.size() < 2) GTEST_SKIP() << "needs 2 ranks: one waits, the other sends late";
  const int me = world.rank();
  const bool pair = me < 2;
  const int peer = me == 0 ? 1 : 0;
  std::vector<double> memory(8, me);
  Plan plan(world, pair ? std::vector<int>{peer} : std::vector<int>{}, 1);
  if (pair) {
    const Region region = plan.add_memory(memory.data(), 64, sizeof(double));
    plan.add_send(0, peer, region, Layout::contiguous(0, 4));
    plan.add_receive(0, peer, region, Layout::contiguous(4, 4));
  }
  plan.commit();
  if (me == 0) {
    Caught caught;
    std::thread intruder([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the main thread is waiting by now
      try {
        plan.test_recv(0, peer);
      } catch (const Error& error) {
        caught = {static_cast<int>(error.code()), error.what()};
      }
    });
    plan.wait_recv(0, peer);  // rank 1 sends after a second
    intruder.join();
    EXPECT_EQ(caught.code, static_cast<int>(Errc::state)) << caught.message;
    EXPECT_NE(caught.message.find("Plan::test_recv: channel 0 with rank 1 of plan " + std::to_string(plan.id()) +
                                  " is being used by another thread at the same time"),
              std::string::npos)
        << caught.message;
    if (gwtest::option("print-catalogue") == "1")
      std::printf("| `Plan::test_recv` (any call on a slot) | a second thread on the same direction of the same slot | "
                  "%s | %s | MisuseCatalogue.PlanFromTwoThreads |\n",
                  misuse::errc_spelling(Errc::state), misuse::table_cell(caught.message).c_str());
    plan.send(0, peer);  // the plan is whole: the exchange goes on
    plan.wait_send(0, peer);
  } else if (me == 1) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    plan.send(0, peer);
    plan.wait_send(0, peer);
    plan.wait_recv(0, peer);
  }
  world.barrier();
}

TEST(MisuseCatalogue, SlotBetweenNodesFromAnotherThread) {
  World& world = gwtest::world();
  const int peer = (world.rank() + 1) % world.size();
  if (world.shares_memory_with(peer)) GTEST_SKIP() << "needs a neighbour on another node (emulated or real)";
  if (world.thread_level() >= ThreadLevel::serialized) GTEST_SKIP() << "MPI allows threads other than main";
  std::vector<double> memory(8, world.rank());
  const int back = (world.rank() + world.size() - 1) % world.size();
  std::vector<int> neighbours{peer};
  if (back != peer) neighbours.push_back(back);
  Plan plan(world, neighbours, 1);
  const Region region = plan.add_memory(memory.data(), 64, sizeof(double));
  plan.add_send(0, peer, region, Layout::contiguous(0, 4)).add_receive(0, back, region, Layout::contiguous(4, 4));
  plan.commit();
  const Caught caught = on_other_thread([&] { plan.send(0, peer); });
  EXPECT_EQ(caught.code, static_cast<int>(Errc::state)) << caught.message;
  EXPECT_NE(caught.message.find("travels between nodes, and MPI provides MPI_THREAD_SINGLE: only the main thread"),
            std::string::npos)
      << caught.message;
  if (world.rank() == 0 && gwtest::option("print-catalogue") == "1")
    std::printf("| `Plan::send` (any call on a slot between nodes) | from a thread other than the main one below "
                "MPI_THREAD_SERIALIZED | %s | %s | MisuseCatalogue.SlotBetweenNodesFromAnotherThread |\n",
                misuse::errc_spelling(Errc::state), misuse::table_cell(caught.message).c_str());
  plan.exchange();  // refused means not entered: the plan goes on from the main thread
  world.barrier();
}

}  // namespace
