// SPDX-License-Identifier: BSD-3-Clause
// Messages the plan splits: a node peer's message with dense pieces (rows) and sparse ones (a
// column) goes as two parts, the rows read in place and the rest staged; the receiver's layout is
// cut along the sender's runs even when it is shaped differently (one index list here). Every value
// is checked after each exchange, by send/test_recv/wait_recv and by exchange(), so a part received
// twice, lost or misplaced shows.
#include <string>
#include <vector>

#include "ghostwire/plan.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

constexpr std::size_t side = 32;  // a side x side block of doubles; rows 256 bytes, dense

struct SplitRing {
  World& w;
  int right, left;
  Segment block, ghosts;
  Plan plan;
  explicit SplitRing(World& world)
      : w(world),
        right((world.rank() + 1) % world.size()),
        left((world.rank() + world.size() - 1) % world.size()),
        block(world, side * side * sizeof(double)),
        ghosts(world, 4 * side * sizeof(double)),
        plan(make()) {}

  // To the right: row 1, column 2, a 3-element corner, row 5 (in this order); from the left into
  // one index list that reverses nothing but interleaves its runs with gaps.
  Plan make() {
    std::vector<int> neighbours{right};
    if (left != right) neighbours.push_back(left);
    Plan p(w, neighbours, 1);
    const Region b = p.add_memory(block, sizeof(double)), g = p.add_memory(ghosts, sizeof(double));
    p.add_send(0, right, b, Layout::contiguous(1 * side, side));
    p.add_send(0, right, b, Layout::box(2, {side}, {static_cast<std::ptrdiff_t>(side)}));
    p.add_send(0, right, b, Layout::indices({7 * side + 9, 9 * side + 9, 11 * side + 9}));
    p.add_send(0, right, b, Layout::contiguous(5 * side, side));
    std::vector<std::size_t> where;
    for (std::size_t i = 0; i < 3 * side + 3; ++i) where.push_back(i + i / 7);  // a gap after every 7
    p.add_receive(0, left, g, Layout::indices(where));
    p.commit();
    return p;
  }
  double* values() { return reinterpret_cast<double*>(block.data()); }
  double* ghost_values() { return reinterpret_cast<double*>(ghosts.data()); }

  // What element i of the message from `rank` in `round` holds.
  static double expected(int rank, int round, std::size_t i) {
    std::size_t cell;
    if (i < side) cell = side + i;
    else if (i < 2 * side) cell = (i - side) * side + 2;
    else if (i < 2 * side + 3) cell = (7 + 2 * (i - 2 * side)) * side + 9;
    else cell = 5 * side + (i - 2 * side - 3);
    return 1e6 * round + 1e3 * rank + static_cast<double>(cell);
  }
  void fill(int round) {
    for (std::size_t cell = 0; cell < side * side; ++cell) values()[cell] = 1e6 * round + 1e3 * w.rank() + static_cast<double>(cell);
  }
  void check(int round) {
    for (std::size_t i = 0; i < 3 * side + 3; ++i)
      ASSERT_EQ(ghost_values()[i + i / 7], expected(left, round, i)) << "round " << round << " element " << i;
  }
  // Every way of sending, each round's values checked.
  void run_rounds() {
    for (int round = 1; round <= 60; ++round) {
      fill(round);
      switch (round % 3) {
        case 0: plan.exchange(); break;
        case 1:
          plan.send(0, right);
          while (!plan.test_recv(0, left)) {
          }
          plan.wait_send(0, right);
          break;
        default:
          plan.start();
          plan.finish();
          break;
      }
      check(round);
      w.barrier();  // nobody changes its block before its neighbour has checked
    }
  }
};

// The launch's world with more threads per rank than any machine has cores.
World sharing_cores() {
  Settings settings = Settings::from_environment();
  settings.intra_path = IntraPath::automatic;
  settings.threads_per_rank = 1 << 16;
  return World(gwtest::world().comm(), settings);
}

}  // namespace

TEST(PlanSplit, MixedPiecesGoAsTwoPartsAndArriveWhole) {
  SplitRing ring(gwtest::world());
  const std::string text = ring.plan.describe();
  // Split by the automatic choice only (GHOSTWIRE_INTRA_PATH=in-place|staged|pushed force one path),
  // and only while every rank has a core (else the whole message goes as one: docs/plans.md).
  const bool split = ring.right != ring.w.rank() && ring.w.shares_memory_with(ring.right) &&
                     ring.w.settings().intra_path == IntraPath::automatic && !ring.w.oversubscribed();
  EXPECT_EQ(text.find("send    channel 0 with rank " + std::to_string(ring.right) + " (part 1 of 2)") != std::string::npos,
            split)
      << text;
  if (split) {
    EXPECT_NE(text.find("(part 1 of 2): 512 bytes, intra-node, in place"), std::string::npos) << text;
    EXPECT_NE(text.find("(part 2 of 2): 280 bytes, intra-node, staged"), std::string::npos) << text;
  }
  ring.run_rounds();
  if (split) {
    EXPECT_EQ(ring.plan.view(0, ring.left), nullptr) << "a split message is in two places";
  }
}

// Where ranks share cores the automatic choice does not read the rows in place: the whole message
// goes as one, pushed into the receiver's ghosts or staged (a sparse message to ghosts stored
// together), so the sender need not wait for its receiver to have run.
TEST(PlanSplit, SharedCoresSendTheWholeMessageAsOne) {
  World w = sharing_cores();
  ASSERT_TRUE(w.oversubscribed());
  SplitRing ring(w);
  const std::string text = ring.plan.describe();
  EXPECT_EQ(text.find("(part 1 of 2)"), std::string::npos) << text;
  if (ring.right != w.rank() && w.shares_memory_with(ring.right)) {
    EXPECT_NE(text.find("send    channel 0 with rank " + std::to_string(ring.right) + ": 792 bytes, intra-node, pushed"),
              std::string::npos)
        << text;
  }
  ring.run_rounds();
}
