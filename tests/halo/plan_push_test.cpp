// SPDX-License-Identifier: BSD-3-Clause
// The pushed path: between node peers a sparse message (an index list) whose receive memory is in
// a Segment is written by the sender straight into the receiver's ghost cells when the receiver
// has said they are free, and staged otherwise. Exchanges of an unstructured mesh over many rounds
// (every ghost checked every round: a single stale one fails), the slot API (both sides sending
// before either receives, a receiver slow to ask), start/finish, and describe() naming the path,
// on every path of the test matrix (between emulated nodes or hosts the path must not be used;
// there MPI receives ghosts that are one run in place).
#include <algorithm>
#include <array>
#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

// The path describe() reports for sends to node peers of a plan whose sends are sparse and whose
// ghosts are dense and in a Segment, under this run's GHOSTWIRE_INTRA_PATH.
bool pushes_to_node_peers(const World& w) {
  return w.settings().intra_path == IntraPath::automatic || w.settings().intra_path == IntraPath::pushed;
}

// The lines of describe() about sends to or receives from `rank`.
std::vector<std::string> slot_lines(const Plan& plan, int rank) {
  std::vector<std::string> lines;
  std::string text = plan.describe(), needle = "with rank " + std::to_string(rank) + ":";
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (line.find(needle) != std::string::npos) lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

// A random point cloud in the unit cube, owned by slabs of x; a rank's ghosts are the points of
// other ranks within `reach` of its slab, grouped by owner (so each owner's ghosts are one dense
// run, as an unstructured code stores them) and ascending in global id. Owned values and ghosts
// live in one Segment, owned first, as gw-bench's unstructured case has them.
struct Mesh {
  World& w;
  std::vector<std::vector<std::size_t>> owned_by;  // global ids per rank, ascending
  std::vector<std::size_t> ghost_global;           // my ghosts' global ids
  GhostMap map;
  std::unique_ptr<Segment> memory;

  explicit Mesh(World& world, std::size_t total = 4000, double reach = 0.04) : w(world) {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> unit(0, 1);
    std::vector<double> x(total);
    for (double& v : x) v = unit(random);
    auto owner_of = [&](std::size_t i) { return std::min(w.size() - 1, static_cast<int>(x[i] * w.size())); };
    owned_by.resize(static_cast<std::size_t>(w.size()));
    for (std::size_t i = 0; i < total; ++i) owned_by[static_cast<std::size_t>(owner_of(i))].push_back(i);
    const double low = static_cast<double>(w.rank()) / w.size(), high = static_cast<double>(w.rank() + 1) / w.size();
    for (int r = 0; r < w.size(); ++r) {
      if (r == w.rank()) continue;
      const auto& theirs = owned_by[static_cast<std::size_t>(r)];
      for (std::size_t k = 0; k < theirs.size(); ++k) {
        double position = x[theirs[k]];
        if (position < low - reach || position > high + reach) continue;
        map.owner.push_back(r);
        map.index.push_back(k);
        ghost_global.push_back(theirs[k]);
      }
    }
    memory = std::make_unique<Segment>(w, std::max<std::size_t>(1, owned().size() + ghost_global.size()) * sizeof(double));
  }
  const std::vector<std::size_t>& owned() const { return owned_by[static_cast<std::size_t>(w.rank())]; }
  double* values() { return reinterpret_cast<double*>(memory->data()); }
  double* ghosts() { return values() + owned().size(); }
  Plan plan() {
    return make_unstructured_plan(w, *memory, 0, owned().size(), ghosts(), map, sizeof(double));
  }
  // Encodes owner-independent identity and the round: a ghost from another round or point differs.
  static double value(std::size_t global, int round) { return static_cast<double>(global) * 4096.0 + round + 0.5; }
  void write_owned(int round) {
    for (std::size_t k = 0; k < owned().size(); ++k) values()[k] = value(owned()[k], round);
  }
  void clear_ghosts() { std::fill_n(ghosts(), ghost_global.size(), -1.0); }
  // The first wrong ghost entry, or -1.
  long first_wrong_ghost(int round) {
    for (std::size_t g = 0; g < ghost_global.size(); ++g)
      if (ghosts()[g] != value(ghost_global[g], round)) return static_cast<long>(g);
    return -1;
  }
  std::vector<int> neighbours() const {
    std::vector<int> ranks(map.owner.begin(), map.owner.end());
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
  }
};

// The describe() lines of the slots with `rank` name the pushed path (or not) for a node peer, and
// an inter-node path for a rank on another node.
void expect_path(const Plan& plan, const World& w, int rank, bool pushed) {
  for (const std::string& line : slot_lines(plan, rank)) {
    if (!w.shares_memory_with(rank)) {
      EXPECT_EQ(line.find("intra-node"), std::string::npos) << line << ": rank " << rank << " is on another node";
      EXPECT_NE(line.find("inter-node"), std::string::npos) << line;
    } else if (pushed) {
      EXPECT_NE(line.find("pushed"), std::string::npos) << line;
    } else {
      EXPECT_EQ(line.find("pushed"), std::string::npos) << line;
    }
  }
}

}  // namespace

TEST(PlanPush, DescribeNamesThePathOnlyBetweenNodePeers) {
  World& w = gwtest::world();
  Mesh mesh(w);
  Plan plan = mesh.plan();
  for (int r : mesh.neighbours()) {
    EXPECT_FALSE(slot_lines(plan, r).empty()) << "describe() has no line for rank " << r << ":\n" << plan.describe();
    expect_path(plan, w, r, pushes_to_node_peers(w));
  }
  w.barrier();
}

TEST(PlanPush, PrivateGhostMemoryStaysStaged) {
  World& w = gwtest::world();
  Mesh mesh(w);
  std::vector<double> private_ghosts(std::max<std::size_t>(1, mesh.ghost_global.size()), -1.0);
  Plan plan = make_unstructured_plan(w, *mesh.memory, 0, mesh.owned().size(), private_ghosts.data(), mesh.map,
                                     sizeof(double));
  for (int r : mesh.neighbours()) expect_path(plan, w, r, false);  // the sender cannot map private memory
  for (int round = 1; round <= 20; ++round) {
    mesh.write_owned(round);
    plan.exchange();
    for (std::size_t g = 0; g < mesh.ghost_global.size(); ++g)
      ASSERT_EQ(private_ghosts[g], Mesh::value(mesh.ghost_global[g], round)) << "round " << round << " ghost " << g;
  }
  w.barrier();
}

// Every ghost is checked after every exchange, with owned values that change every round: a ghost
// the push missed, or one left from the round before, fails. exchange() and start()/finish() with
// "computation" between them alternate, with random delays so the ranks arrive in either order
// (the receiver ready for a push, or not yet and the message staged).
TEST(PlanPush, ManyExchangesEveryGhostFresh) {
  World& w = gwtest::world();
  Mesh mesh(w);
  Plan plan = mesh.plan();
  std::mt19937 random(static_cast<unsigned>(w.rank()) * 31u + 5u);
  for (int round = 1; round <= 400; ++round) {
    mesh.write_owned(round);
    if (random() % 4 == 0) std::this_thread::sleep_for(std::chrono::microseconds(random() % 200));
    if (round % 2) {
      plan.exchange();
    } else {
      plan.start();
      volatile double sum = 0;  // owned data only: ghosts belong to the plan until finish()
      for (std::size_t k = 0; k < mesh.owned().size(); ++k) sum = sum + mesh.values()[k];
      plan.finish();
    }
    long wrong = mesh.first_wrong_ghost(round);
    ASSERT_EQ(wrong, -1) << "round " << round << ": ghost entry " << wrong << " (global id "
                         << mesh.ghost_global[static_cast<std::size_t>(wrong)] << ", owner "
                         << mesh.map.owner[static_cast<std::size_t>(wrong)] << ") holds "
                         << mesh.ghosts()[static_cast<std::size_t>(wrong)];
  }
  w.barrier();
}

// The slot API with both sides sending before either receives: nobody waits for the other's
// "free" in send(), so nothing deadlocks, and every message arrives whole.
TEST(PlanPush, SlotApiBothSidesSendFirst) {
  World& w = gwtest::world();
  Mesh mesh(w);
  Plan plan = mesh.plan();
  const std::vector<int> neighbours = mesh.neighbours();
  std::vector<int> receives_from;  // neighbours I have ghosts of (all of them here: the reach is symmetric)
  for (int r : neighbours)
    if (std::find(mesh.map.owner.begin(), mesh.map.owner.end(), r) != mesh.map.owner.end()) receives_from.push_back(r);
  std::mt19937 random(static_cast<unsigned>(w.rank()) + 11u);
  for (int round = 1; round <= 200; ++round) {
    mesh.write_owned(round);
    for (int r : neighbours) plan.send(0, r);
    std::shuffle(receives_from.begin(), receives_from.end(), random);
    for (int r : receives_from) {
      if (round % 3 == 0) {
        while (!plan.test_recv(0, r)) std::this_thread::yield();
      } else {
        plan.wait_recv(0, r);
      }
    }
    long wrong = mesh.first_wrong_ghost(round);
    ASSERT_EQ(wrong, -1) << "round " << round << ": ghost entry " << wrong;
    for (int r : neighbours) plan.wait_send(0, r);  // before my owned values change
  }
  w.barrier();
}

// One plan driven by every kind of call in turn, with random delays: between nodes a slot whose
// ghosts are one run receives in place after exchange()/finish() and into its buffer after
// test_recv()/wait_recv() (message_path.cpp), so this switches between the two ways in both
// directions and in either order of arrival. A ghost from the wrong round, or written while this
// rank still reads the last one, fails the check.
TEST(PlanPush, MixedCallsEveryGhostFresh) {
  World& w = gwtest::world();
  Mesh mesh(w);
  Plan plan = mesh.plan();
  const std::vector<int> neighbours = mesh.neighbours();
  std::mt19937 random(static_cast<unsigned>(w.rank()) * 17u + 3u);
  for (int round = 1; round <= 300; ++round) {
    mesh.write_owned(round);
    if (random() % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(random() % 300));
    switch ((round / 3) % 4) {  // three rounds of each, so each way runs on both parities
      case 0: plan.exchange(); break;
      case 1: plan.start(); plan.finish(); break;
      case 2:
        for (int r : neighbours) plan.send(0, r);
        for (int r : neighbours) plan.wait_recv(0, r);
        for (int r : neighbours) plan.wait_send(0, r);
        break;
      default:
        for (int r : neighbours) plan.send(0, r);
        for (int r : neighbours)
          while (!plan.test_recv(0, r)) std::this_thread::yield();
        for (int r : neighbours) plan.wait_send(0, r);
    }
    long wrong = mesh.first_wrong_ghost(round);
    ASSERT_EQ(wrong, -1) << "round " << round << ": ghost entry " << wrong << " holds "
                         << mesh.ghosts()[static_cast<std::size_t>(wrong)];
    // Every rank has read its ghosts before any rank asks for the next round's: a message that
    // landed early (before this rank's next call) would show as the next round's value here.
    if (round % 5 == 0) {
      w.barrier();
      ASSERT_EQ(mesh.first_wrong_ghost(round), -1) << "round " << round << ": a ghost changed after the exchange";
    }
  }
  w.barrier();
}

namespace {

// Rank pairs (0,1), (2,3), ...: the lower rank sends 16 scattered doubles, the higher one
// receives them into a dense run of a Segment.
struct SparsePair {
  static constexpr std::size_t count = 16, stride = 8;  // one element per cache line: sparse
  World& w;
  int partner;
  bool sender;
  Segment out, in;
  Plan plan;
  SparsePair(World& world, bool by_reply = false)
      : w(world),
        partner((w.rank() ^ 1) < w.size() ? (w.rank() ^ 1) : -1),
        sender(w.rank() % 2 == 0),
        out(world, count * stride * sizeof(double)),
        in(world, count * sizeof(double)),
        plan(make(by_reply)) {}
  Plan make(bool by_reply) {
    std::vector<int> neighbours;
    if (partner >= 0) neighbours.push_back(partner);
    Plan p(w, neighbours, 1);
    if (by_reply) p.acknowledge_by_reply();
    Region o = p.add_memory(out, sizeof(double)), i = p.add_memory(in, sizeof(double));
    std::vector<std::size_t> scattered;
    for (std::size_t k = 0; k < count; ++k) scattered.push_back((count - 1 - k) * stride);  // reversed too
    if (partner >= 0 && sender) p.add_send(0, partner, o, Layout::indices(scattered));
    if (partner >= 0 && !sender) p.add_receive(0, partner, i, Layout::contiguous(0, count));
    p.commit();
    return p;
  }
  static double value(int round, std::size_t k) { return round * 100.0 + static_cast<double>(k) + 0.25; }
  void write(int round) {
    for (std::size_t k = 0; k < count; ++k) reinterpret_cast<double*>(out.data())[(count - 1 - k) * stride] = value(round, k);
  }
  // The round the ghosts hold, or -1 if they are not one round's values.
  int ghosts_round() const {
    const auto* ghosts = reinterpret_cast<const double*>(in.data());
    int round = static_cast<int>(ghosts[0] / 100.0);
    for (std::size_t k = 0; k < count; ++k)
      if (ghosts[k] != value(round, k)) return -1;
    return round;
  }
  bool pushed() const { return partner >= 0 && plan.describe().find("pushed") != std::string::npos; }
};

}  // namespace

// The receiver asks late. The sender's first message goes to staging (the receiver has not said
// its ghosts are free), its second can go nowhere yet (the receiver has not taken the first, whose
// staging half is the other one): send() returns at once all the same, test_send says the second
// is not written, and the sender's wait_send writes it once the receiver has asked for the first.
// The receiver's ghosts hold the first message until it asks for the second.
TEST(PlanPush, ReceiverSlowToAskSenderDoesNotWait) {
  World& w = gwtest::world();
  SparsePair pair(w);
  int pushing = pair.pushed() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &pushing, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);  // skip together
  if (!pushing) GTEST_SKIP() << "no pushed slot here (another node, or GHOSTWIRE_INTRA_PATH forbids it)";
  constexpr auto slow = std::chrono::milliseconds(300);
  w.barrier();
  if (pair.sender) {
    const auto start = std::chrono::steady_clock::now();
    pair.write(1);
    pair.plan.send(0, pair.partner);
    EXPECT_TRUE(pair.plan.test_send(0, pair.partner)) << "the first message is staged: the data may change";
    pair.write(2);
    pair.plan.send(0, pair.partner);
    const auto returned = std::chrono::steady_clock::now();
    EXPECT_LT(returned - start, slow / 3) << "send() waited for the receiver";
    EXPECT_FALSE(pair.plan.test_send(0, pair.partner)) << "the second message cannot have been written yet";
    pair.plan.wait_send(0, pair.partner);  // writes it once the receiver asks for the first
    EXPECT_GE(std::chrono::steady_clock::now() - start, slow / 2) << "written before the receiver asked";
  } else if (pair.partner >= 0) {
    std::this_thread::sleep_for(slow);
    pair.plan.wait_recv(0, pair.partner);
    EXPECT_EQ(pair.ghosts_round(), 1);
    std::this_thread::sleep_for(slow / 10);  // the sender is waiting to write message 2 now
    EXPECT_EQ(pair.ghosts_round(), 1) << "message 2 was written before this rank asked for it";
    pair.plan.wait_recv(0, pair.partner);
    EXPECT_EQ(pair.ghosts_round(), 2);
  }
  w.barrier();
}

// Plans that acknowledge by reply keep staging their sparse slots (a push would wait for the
// receiver's next test_recv, a round trip more per message of a ping-pong); they still work.
TEST(PlanPush, AcknowledgeByReplyFallsBackToStaging) {
  World& w = gwtest::world();
  SparsePair pair(w, true);
  if (pair.partner >= 0) expect_path(pair.plan, w, pair.partner, false);
  for (int round = 1; pair.partner >= 0 && round <= 50; ++round) {
    if (pair.sender) {
      pair.write(round);
      pair.plan.send(0, pair.partner);
      pair.plan.wait_send(0, pair.partner);  // slots one only sends on are acknowledged at once
    } else {
      pair.plan.wait_recv(0, pair.partner);
      ASSERT_EQ(pair.ghosts_round(), round);
    }
  }
  w.barrier();
}
