// SPDX-License-Identifier: BSD-3-Clause
// Plan::intra_path and Plan::send_path / receive_path: a plan that names the path between node
// peers takes it whatever GHOSTWIRE_INTRA_PATH says (the halo matrix forces every path), and says
// so by name; the ring's values arrive either way. A name no path has, a path between nodes, an
// empty name and a choice after commit are refused by name.
#include <string>
#include <vector>

#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

constexpr std::size_t count = 96;

double value(int rank, std::size_t i, int round) { return rank * 1e5 + static_cast<double>(i) + round * 0.125; }

// Private arrays: my block, then the left rank's block as ghosts. Every other element is sent (a
// sparse layout, which no path reads in place).
struct PrivateRing {
  World& w;
  int left, right;
  std::vector<double> data;
  Plan plan;
  PrivateRing(World& world, const std::string& path)
      : w(world),
        left((world.rank() + world.size() - 1) % world.size()),
        right((world.rank() + 1) % world.size()),
        data(3 * count, -1.0),
        plan(world, neighbours(world), 1) {
    if (!path.empty()) plan.intra_path(path);
    const Region r = plan.add_memory(data.data(), data.size() * sizeof(double), sizeof(double));
    const std::size_t extent[1] = {count};
    const std::ptrdiff_t two[1] = {2};
    plan.add_send(0, right, r, Layout::box(0, extent, two)).add_receive(0, left, r, Layout::contiguous(2 * count, count));
  }
  static std::vector<int> neighbours(const World& w) {
    std::vector<int> n{(w.rank() + w.size() - 1) % w.size(), (w.rank() + 1) % w.size()};
    if (n[0] == n[1]) n.pop_back();
    return n;
  }
  void run_and_check() {
    for (int round = 1; round <= 3; ++round) {
      for (std::size_t i = 0; i < 2 * count; ++i) data[i] = value(w.rank(), i, round);
      plan.exchange();
      for (std::size_t i = 0; i < count; ++i)
        ASSERT_EQ(data[2 * count + i], value(left, 2 * i, round)) << "round " << round << " ghost " << i;
    }
  }
};

TEST(PlanPathChoice, NamedPathIsTakenAndNamed) {
  World& w = gwtest::world();
  for (const char* path : {"staged", "auto"}) {
    PrivateRing ring(w, path);
    ring.plan.commit();
    const std::string sent = ring.plan.send_path(0, ring.right), received = ring.plan.receive_path(0, ring.left);
    const bool staged = std::string(path) == "staged";
    if (staged && w.shares_memory_with(ring.right) && ring.right != w.rank()) {
      EXPECT_EQ(sent, "staged") << ring.plan.describe();
    }
    if (staged && w.shares_memory_with(ring.left) && ring.left != w.rank()) {
      EXPECT_EQ(received, "staged") << ring.plan.describe();
    }
    EXPECT_FALSE(sent.empty());
    if (!w.shares_memory_with(ring.right)) {
      EXPECT_NE(sent, "staged") << "a path between nodes";  // Plan::intra_path leaves those alone
    }
    ring.run_and_check();
  }
}

TEST(PlanPathChoice, BadChoicesAreRefusedByName) {
  World& w = gwtest::world();
  {
    PrivateRing ring(w, "no-such-path");
    GW_EXPECT_ERROR(ring.plan.commit(), Errc::invalid_argument, "Plan::intra_path(\"no-such-path\")",
                    "names no message path", "staged");
  }
  {
    PrivateRing ring(w, "two-sided");
    GW_EXPECT_ERROR(ring.plan.commit(), Errc::invalid_argument, "Plan::intra_path(\"two-sided\")",
                    "names a path between nodes");
  }
  PrivateRing ring(w, "");
  GW_EXPECT_ERROR(ring.plan.intra_path(""), Errc::invalid_argument, "Plan::intra_path", "empty");
  GW_EXPECT_ERROR(ring.plan.send_path(0, ring.right), Errc::state, "Plan::send_path", "not committed");
  ring.plan.commit();
  GW_EXPECT_ERROR(ring.plan.intra_path("staged"), Errc::state, "Plan::intra_path", "already committed");
  ring.run_and_check();
}

}  // namespace
