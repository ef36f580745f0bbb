// SPDX-License-Identifier: BSD-3-Clause
// Reading messages in place (view, prefetch_recv, test_recv_in_place, wait_recv_in_place, release,
// read_in_place, prefetch_send)
// and acknowledgement by reply, in a ping-pong between rank pairs (0,1), (2,3), ...: the protocol of
// a pipelined wavefront, where each message on a slot is answered on the same slot after it has
// been read.
#include <chrono>
#include <stdexcept>
#include <string>

#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

constexpr std::size_t channels = 3, count = 8;  // doubles per message: one cache line, read in place

int partner_of(const World& w) { return (w.rank() ^ 1) < w.size() ? (w.rank() ^ 1) : -1; }

// Changes with every round, rank, channel and element: a stale or misplaced value cannot match.
double value(int round, int rank, std::size_t channel, std::size_t k) {
  return round * 1000.0 + rank * 100.0 + static_cast<double>(channel * 10 + k) + 0.25;
}

struct Pair {
  World& w;
  int partner;
  Segment out, in;
  Plan plan;
  Pair(World& world, bool by_reply)
      : w(world),
        partner(partner_of(world)),
        out(world, channels * count * sizeof(double)),
        in(world, channels * count * sizeof(double)),
        plan(make(by_reply)) {}
  Plan make(bool by_reply) {
    std::vector<int> neighbours;
    if (partner >= 0) neighbours.push_back(partner);
    Plan p(w, neighbours, channels);
    if (by_reply) p.acknowledge_by_reply();
    Region o = p.add_memory(out, sizeof(double)), i = p.add_memory(in, sizeof(double));
    for (std::size_t c = 0; partner >= 0 && c < channels; ++c) {
      p.add_send(c, partner, o, Layout::contiguous(c * count, count));
      p.add_receive(c, partner, i, Layout::contiguous(c * count, count));
    }
    p.commit();
    return p;
  }
  double* output(std::size_t c) { return reinterpret_cast<double*>(out.data()) + c * count; }
  // Where the received message of channel c is: the partner's data, or my copy of it.
  const double* received(std::size_t c) {
    const std::byte* view = plan.view(c, partner);
    return view != nullptr ? reinterpret_cast<const double*>(view) : reinterpret_cast<const double*>(in.data()) + c * count;
  }
  void receive_in_place(std::size_t c) {
    if (c == 0) plan.prefetch_recv(c, partner);  // only a hint: the message must arrive as without it
    if (c % 2 == 1) {  // both ways to wait, on different channels; the wait returns where to read
      const std::byte* at = plan.wait_recv_in_place(c, partner);
      EXPECT_EQ(at, plan.view(c, partner)) << "channel " << c;
      return;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!plan.test_recv_in_place(c, partner))
      ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "channel " << c << ": no message from rank " << partner;
  }
  void send_round(int round) {
    for (std::size_t c = 0; c < channels; ++c) {
      for (std::size_t k = 0; k < count; ++k) output(c)[k] = value(round, w.rank(), c, k);
      if (c == channels - 1) {
        plan.prefetch_send(c, partner);  // only a hint: the send must go as without it
        ASSERT_TRUE(plan.try_send(c, partner)) << "round " << round << ": the last message was taken";
      } else {
        plan.send(c, partner);
      }
    }
  }
  // read_in_place: waits, hands over where the message is, releases it.
  void read_round(int round, std::size_t c) {
    bool read = false;
    plan.read_in_place(c, partner, [&](const std::byte* message) {
      EXPECT_EQ(message, plan.view(c, partner)) << "round " << round;
      const double* at = message != nullptr ? reinterpret_cast<const double*>(message)
                                            : reinterpret_cast<const double*>(in.data()) + c * count;
      for (std::size_t k = 0; k < count; ++k)
        EXPECT_EQ(at[k], value(round, partner, c, k)) << "round " << round << " channel " << c << " element " << k;
      read = true;
    });
    EXPECT_TRUE(read) << "round " << round << ": the reader was not called";
  }
  // Between node peers an acknowledgement by reply arrives with the reply itself; across nodes
  // acknowledgements are messages of their own and may still be on their way.
  void expect_acknowledged(int round) {
    for (std::size_t c = 0; c < channels; ++c) {
      if (w.shares_memory_with(partner)) ASSERT_TRUE(plan.test_send(c, partner)) << "round " << round << " channel " << c;
      else plan.wait_send(c, partner);
    }
  }
  void check_round(int round) {
    for (std::size_t c = channels; c-- > 0;) {  // channels are independent: any order
      if (c == channels - 1) {
        read_round(round, c);
        continue;
      }
      receive_in_place(c);
      for (std::size_t k = 0; k < count; ++k)
        ASSERT_EQ(received(c)[k], value(round, partner, c, k)) << "round " << round << " channel " << c << " element " << k;
      plan.release(c, partner);
    }
  }
};

}  // namespace

TEST(PlanInPlace, ViewIsThePeersDataOnTheNodeAndNullAcrossNodes) {
  World& w = gwtest::world();
  Pair pair(w, false);
  for (std::size_t c = 0; pair.partner >= 0 && c < channels; ++c) {
    const std::byte* view = pair.plan.view(c, pair.partner);
    if (!w.shares_memory_with(pair.partner)) {
      EXPECT_EQ(view, nullptr) << "channel " << c;
    } else if (w.settings().intra_path == IntraPath::staged ||
               (w.settings().intra_path == IntraPath::automatic && w.oversubscribed())) {
      // Staged (by the automatic choice where ranks share cores: docs/plans.md).
      EXPECT_NE(view, nullptr) << "channel " << c << ": a staged message is read in its staging buffer";
      EXPECT_NE(view, pair.out.peer_data(pair.partner) + c * count * sizeof(double)) << "channel " << c;
    } else if (w.settings().intra_path == IntraPath::pushed) {
      EXPECT_EQ(view, nullptr) << "channel " << c << ": a pushed message is written into the ghost cells";
    } else if (w.settings().intra_path == IntraPath::named) {
      continue;  // a path a program registers offers a view or not, as it likes

    } else {
      EXPECT_EQ(view, pair.out.peer_data(pair.partner) + c * count * sizeof(double)) << "channel " << c;
    }
  }
  w.barrier();
}

// Where ranks share cores the automatic choice stages a node peer's dense message (docs/plans.md),
// but not in a plan acknowledged by reply: its sender waits for the reply either way.
TEST(PlanInPlace, OnlyReplyPlansReadInPlaceWhereCoresAreShared) {
  Settings settings = Settings::from_environment();
  settings.intra_path = IntraPath::automatic;
  settings.threads_per_rank = 1 << 16;  // more than any machine's cores
  World shared(gwtest::world().comm(), settings);
  ASSERT_TRUE(shared.oversubscribed());
  Pair staged(shared, false), by_reply(shared, true);
  for (std::size_t c = 0; staged.partner >= 0 && shared.shares_memory_with(staged.partner) && c < channels; ++c) {
    const std::byte* in_place = staged.out.peer_data(staged.partner) + c * count * sizeof(double);
    EXPECT_NE(staged.plan.view(c, staged.partner), nullptr) << "channel " << c;
    EXPECT_NE(staged.plan.view(c, staged.partner), in_place) << "channel " << c;
    EXPECT_EQ(by_reply.plan.view(c, by_reply.partner), by_reply.out.peer_data(by_reply.partner) + c * count * sizeof(double))
        << "channel " << c;
  }
  shared.barrier();
}

TEST(PlanReply, PingPongReadsInPlaceAndAcknowledgesWithTheReply) {
  World& w = gwtest::world();
  Pair pair(w, true);
  const bool leader = w.rank() % 2 == 0;
  for (int round = 1; pair.partner >= 0 && round <= 300; ++round) {
    if (leader) {
      pair.send_round(round);
      pair.check_round(round);
      pair.expect_acknowledged(round);  // by the reply: no acknowledgement of its own was needed
    } else {
      pair.check_round(round);
      pair.expect_acknowledged(round);  // my last reply, by this round's message
      pair.send_round(round);
    }
  }
  // The follower's last reply was consumed, but nothing answers it: between node peers it stays
  // unacknowledged until the leader acknowledges explicitly.
  w.barrier();
  const bool node_peers = pair.partner >= 0 && w.shares_memory_with(pair.partner);
  if (!leader && node_peers) {
    for (std::size_t c = 0; c < channels; ++c) EXPECT_FALSE(pair.plan.test_send(c, pair.partner)) << "channel " << c;
  }
  w.barrier();
  for (std::size_t c = 0; pair.partner >= 0 && c < channels; ++c) {
    if (leader) pair.plan.acknowledge(c, pair.partner);
    else pair.plan.wait_send(c, pair.partner);
  }
  w.barrier();
}

TEST(PlanInPlace, ReleaseAcknowledgesWithoutReplies) {
  World& w = gwtest::world();
  Pair pair(w, false);
  // Held in place: a node peer's message that is read where it is (not pushed into my memory). The
  // plan is symmetric, so my receive's view tells how my partner receives too.
  const bool leader = w.rank() % 2 == 0, held_in_place = pair.partner >= 0 && pair.plan.view(0, pair.partner) != nullptr;
  for (int round = 1; round <= 20; ++round) {
    if (pair.partner >= 0 && leader) pair.send_round(round);
    if (pair.partner >= 0 && !leader)
      for (std::size_t c = 0; c < channels; ++c) pair.receive_in_place(c);
    w.barrier();
    // Held in place, not released: the sender must not reuse its data yet.
    if (leader && held_in_place) {
      for (std::size_t c = 0; c < channels; ++c) EXPECT_FALSE(pair.plan.test_send(c, pair.partner)) << "round " << round;
      // Nor may try_send send: a second message now would be taken for the next round's.
      for (std::size_t c = 0; c < channels; ++c) EXPECT_FALSE(pair.plan.try_send(c, pair.partner)) << "round " << round;
    }
    if (!leader && held_in_place)
      GW_EXPECT_ERROR(pair.plan.test_recv_in_place(0, pair.partner), Errc::state, "still held in place", "release()");
    if (!leader && held_in_place)
      GW_EXPECT_ERROR(pair.plan.wait_recv_in_place(1, pair.partner), Errc::state, "Plan::wait_recv_in_place",
                      "still held in place");
    if (!leader && held_in_place)
      GW_EXPECT_ERROR(pair.plan.prefetch_recv(0, w.size() + 3), Errc::out_of_range, "Plan::prefetch_recv",
                      "is not a neighbour");
    w.barrier();
    for (std::size_t c = 0; pair.partner >= 0 && c < channels; ++c) {
      if (leader) {
        pair.plan.wait_send(c, pair.partner);
      } else {
        for (std::size_t k = 0; k < count; ++k) ASSERT_EQ(pair.received(c)[k], value(round, pair.partner, c, k));
        pair.plan.release(c, pair.partner);
        pair.plan.release(c, pair.partner);  // a second release does nothing
      }
    }
  }
  w.barrier();
}

// A reader that throws leaves the message released, as one that returns: the sender may send again,
// and the next message is read as usual.
TEST(PlanInPlace, ReadInPlaceReleasesWhenTheReaderThrows) {
  World& w = gwtest::world();
  Pair pair(w, false);
  for (int round = 1; pair.partner >= 0 && round <= 4; ++round) {
    for (std::size_t k = 0; k < count; ++k) pair.output(0)[k] = value(round, w.rank(), 0, k);
    pair.plan.send(0, pair.partner);
    double first = 0.0;
    try {
      pair.plan.read_in_place(0, pair.partner, [&](const std::byte* message) {
        first = message != nullptr ? reinterpret_cast<const double*>(message)[0]
                                   : reinterpret_cast<const double*>(pair.in.data())[0];
        if (round == 2) throw std::runtime_error("the reader failed");
      });
      EXPECT_NE(round, 2) << "the reader's exception was lost";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(round, 2) << e.what();
    }
    EXPECT_EQ(first, value(round, pair.partner, 0, 0)) << "round " << round;
    pair.plan.wait_send(0, pair.partner);  // times out if the partner's message stayed held
  }
  GW_EXPECT_ERROR(pair.plan.read_in_place(0, w.size() + 3, [](const std::byte*) {}), Errc::out_of_range,
                  "Plan::read_in_place", "is not a neighbour");
  if (pair.partner >= 0) {  // a reader that calls the plan on its own slot is refused, naming why
    for (std::size_t k = 0; k < count; ++k) pair.output(0)[k] = value(9, w.rank(), 0, k);
    pair.plan.send(0, pair.partner);
    GW_EXPECT_ERROR(pair.plan.read_in_place(0, pair.partner, [&](const std::byte*) { pair.plan.release(0, pair.partner); }),
                    Errc::state, "Plan::release", "already in a call on this thread");
    pair.plan.wait_send(0, pair.partner);  // and the message was released all the same
  }
  w.barrier();
}

// The slot ends (Plan::send_end, receive_end) drive a ping-pong as the plan's own calls do: values
// of every round, the send refused while the partner still reads, and errors naming the end.
TEST(PlanInPlace, SlotEndsDriveThePingPong) {
  World& w = gwtest::world();
  Pair pair(w, false);
  GW_EXPECT_ERROR(SendEnd().try_send(), Errc::state, "SendEnd::try_send", "refers to no slot");
  GW_EXPECT_ERROR(ReceiveEnd().prefetch(), Errc::state, "ReceiveEnd::prefetch", "refers to no slot");
  GW_EXPECT_ERROR((void)pair.plan.send_end(0, w.size() + 3), Errc::out_of_range, "Plan::send_end", "is not a neighbour");
  if (pair.partner < 0) return w.barrier();
  SendEnd out = pair.plan.send_end(1, pair.partner);
  ReceiveEnd in = pair.plan.receive_end(1, pair.partner);
  const bool leader = w.rank() % 2 == 0;
  for (int round = 1; round <= 50; ++round) {
    for (int turn = 0; turn < 2; ++turn) {
      if (leader == (turn == 0)) {
        for (std::size_t k = 0; k < count; ++k) pair.output(1)[k] = value(round, w.rank(), 1, k);
        out.prefetch();
        if (!out.try_send()) {
          out.wait_send();
          out.send();
        }
      } else {
        in.prefetch();
        double sum = 0.0, expected = 0.0;
        in.read_in_place([&](const std::byte* message) {
          const double* at = message != nullptr ? reinterpret_cast<const double*>(message)
                                                : reinterpret_cast<const double*>(pair.in.data()) + count;
          for (std::size_t k = 0; k < count; ++k) {
            sum += at[k];
            expected += value(round, pair.partner, 1, k);
          }
        });
        ASSERT_EQ(sum, expected) << "round " << round;
      }
    }
  }
  out.wait_send();
  EXPECT_TRUE(out.test_send());
  Plan moved = std::move(pair.plan);  // the ends go with the plan's state
  EXPECT_TRUE(out.test_send());
  w.barrier();
}

TEST(PlanReply, BothSidesMustAgreeAndChooseBeforeCommit) {
  World& w = gwtest::world();
  if (w.size() < 2) GTEST_SKIP() << "needs two ranks";
  const int partner = partner_of(w);
  std::vector<int> neighbours;
  if (partner >= 0) neighbours.push_back(partner);
  Segment memory(w, 8 * sizeof(double));
  {
    Plan plan(w, neighbours, 1);
    if (w.rank() % 2 == 0) plan.acknowledge_by_reply();
    Region r = plan.add_memory(memory, sizeof(double));
    if (partner >= 0) {
      plan.add_send(0, partner, r, Layout::contiguous(0, 2));
      plan.add_receive(0, partner, r, Layout::contiguous(4, 2));
    }
    if (partner >= 0) {
      const std::string text = "rank " + std::to_string(w.rank() & ~1) + " acknowledges by reply";
      GW_EXPECT_ERROR(plan.commit(), Errc::mismatch, text.c_str(), "both sides must agree");
    } else {
      GW_EXPECT_ERROR(plan.commit(), Errc::mismatch, "found on other ranks");
    }
  }
  Plan plan(w, neighbours, 1);
  plan.commit();
  GW_EXPECT_ERROR(plan.acknowledge_by_reply(), Errc::state, "already committed", "before commit()");
  w.barrier();
}
