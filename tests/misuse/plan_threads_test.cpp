// SPDX-License-Identifier: BSD-3-Clause
// Misuse catalogue: one plan used from two threads at once while MPI provides less than
// MPI_THREAD_MULTIPLE (the test main initialises MPI with MPI_Init: MPI_THREAD_SINGLE). The second
// thread must get Errc::state naming the plan, not race on its counters.
//
// Two ranks: rank 0's main thread waits in wait_recv for a message rank 1 sends only after a
// second; meanwhile rank 0's other thread calls the same plan. One rank: nothing to wait for, skip.
#include <chrono>
#include <thread>

#include "ghostwire/plan.hpp"
#include "misuse_catalogue.hpp"

using namespace ghostwire;

namespace {

TEST(MisuseCatalogue, PlanFromTwoThreads) {
  World& world = gwtest::world();
  if (world.size() < 2) GTEST_SKIP() << "needs 2 ranks: one waits, the other sends late";
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  if (level == MPI_THREAD_MULTIPLE) GTEST_SKIP() << "MPI provides MPI_THREAD_MULTIPLE: concurrent use is allowed";
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
    std::string message;
    int code = -1;
    std::thread intruder([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the main thread is waiting by now
      try {
        plan.send(0, peer);
      } catch (const Error& error) {
        code = static_cast<int>(error.code());
        message = error.what();
      }
    });
    plan.wait_recv(0, peer);  // rank 1 sends after a second
    intruder.join();
    EXPECT_EQ(code, static_cast<int>(Errc::state)) << message;
    EXPECT_NE(message.find("Plan::send: plan " + std::to_string(plan.id()) + " is being used by another thread"),
              std::string::npos) << message;
    EXPECT_NE(message.find("MPI_THREAD_MULTIPLE"), std::string::npos) << message;
    if (gwtest::option("print-catalogue") == "1")
      std::printf("| `Plan::send` (any communicating call) | a second thread while another is inside the plan | %s | %s | "
                  "MisuseCatalogue.PlanFromTwoThreads |\n",
                  misuse::errc_spelling(Errc::state), misuse::table_cell(message).c_str());
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

}  // namespace
