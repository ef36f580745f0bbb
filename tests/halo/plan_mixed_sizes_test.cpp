// SPDX-License-Identifier: BSD-3-Clause
// Messages whose pieces mix elements of 1, 2, 4, 8 and 16 bytes (mixed_message.hpp) on a ring, over
// every intra-node path, forced and automatic: the automatic path splits each one between node
// peers into runs that mix element sizes (rows read in place, columns and scattered lists staged),
// which once failed at commit ("a split message's run boundary falls inside an element"). Every
// ghost element is checked after each round, sent every way; gaps between ghosts must keep their fill.
#include <mpi.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "ghostwire/plan.hpp"
#include "mixed_message.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;
namespace mixed = gwtest::mixed;

namespace {

constexpr std::byte gap{0xA5};
constexpr std::size_t line = 64;
constexpr std::size_t kinds = std::size(mixed::sizes);

std::size_t round_up(std::size_t bytes) { return (bytes + line - 1) / line * line; }
std::size_t kind_of(std::size_t size) {
  return static_cast<std::size_t>(std::find(std::begin(mixed::sizes), std::end(mixed::sizes), size) -
                                  std::begin(mixed::sizes));
}

// One channel's message: its pieces on both sides and where its ghost blocks start (bytes).
struct Message {
  std::vector<mixed::Piece> sent, received;
  std::array<std::size_t, kinds> ghost_offset{};
};

// Channel 0 has an 8-byte piece before 4-byte ones (the report's double and int32 grids), channel
// 1 another order; each rank sends both to its right and receives them from its left.
Message message_of(std::vector<std::size_t> order) {
  Message m;
  m.sent = mixed::send_pieces(order);
  m.received = mixed::receive_pieces(m.sent);
  return m;
}

struct MixedRing {
  World& w;
  int right, left;
  std::array<Message, 2> messages{message_of({8, 4, 16, 1, 2}), message_of({1, 16, 2, 8, 4})};
  std::array<std::size_t, kinds> block_offset{};
  Segment blocks, ghosts;
  Plan plan;

  explicit MixedRing(World& world)
      : w(world),
        right((world.rank() + 1) % world.size()),
        left((world.rank() + world.size() - 1) % world.size()),
        blocks(world, lay_out_blocks()),
        ghosts(world, lay_out_ghosts()),
        plan(make()) {}

  std::size_t lay_out_blocks() {
    std::size_t end = 0;
    for (std::size_t k = 0; k < kinds; ++k) {
      block_offset[k] = end;
      end += round_up(mixed::block_elements * mixed::sizes[k]);
    }
    return end;
  }
  std::size_t lay_out_ghosts() {
    std::size_t end = 0;
    for (Message& m : messages)
      for (std::size_t k = 0; k < kinds; ++k) {
        m.ghost_offset[k] = end;
        end += round_up(mixed::ghost_elements(m.received, mixed::sizes[k]) * mixed::sizes[k]);
      }
    return end;
  }

  Plan make() {
    std::vector<int> neighbours{right};
    if (left != right) neighbours.push_back(left);
    Plan p(w, neighbours, messages.size());
    for (std::size_t c = 0; c < messages.size(); ++c) {
      const Message& m = messages[c];
      for (const mixed::Piece& piece : m.sent) {
        const std::size_t k = kind_of(piece.size);
        p.add_send(c, right, p.add_memory(blocks, piece.size, block_offset[k], mixed::block_elements * piece.size),
                   piece.layout);
      }
      for (const mixed::Piece& piece : m.received) {
        const std::size_t k = kind_of(piece.size);
        p.add_receive(c, left, p.add_memory(ghosts, piece.size, m.ghost_offset[k]), piece.layout);
      }
    }
    p.commit();
    return p;
  }

  std::byte* block(std::size_t size, std::size_t index) {
    return blocks.data() + block_offset[kind_of(size)] + index * size;
  }
  std::byte* ghost(const Message& m, std::size_t size, std::size_t index) {
    return ghosts.data() + m.ghost_offset[kind_of(size)] + index * size;
  }

  void fill(int round) {
    for (std::size_t s : mixed::sizes)
      for (std::size_t e = 0; e < mixed::block_elements; ++e) mixed::encode(block(s, e), s, e, w.rank(), round);
    std::fill(ghosts.data(), ghosts.data() + ghosts.size(), gap);
  }

  // Message element i from `left` in ghost element i of the receive pieces; every other ghost
  // element (the gaps) keeps its fill.
  ::testing::AssertionResult check(int round) {
    for (std::size_t c = 0; c < messages.size(); ++c) {
      const Message& m = messages[c];
      const std::vector<mixed::Element> message = mixed::elements_of(m.sent), into = mixed::elements_of(m.received);
      std::array<std::vector<bool>, kinds> filled;
      for (std::size_t k = 0; k < kinds; ++k) filled[k].resize(mixed::ghost_elements(m.received, mixed::sizes[k]));
      for (std::size_t i = 0; i < message.size(); ++i) {
        const std::size_t s = message[i].size;
        if (!mixed::holds(ghost(m, s, into[i].index), s, message[i].index, left, round))
          return ::testing::AssertionFailure() << "round " << round << " channel " << c << ": message element " << i
                                               << " (" << s << " bytes, element " << message[i].index << " of rank "
                                               << left << ") is wrong in ghost element " << into[i].index;
        filled[kind_of(s)][into[i].index] = true;
      }
      for (std::size_t k = 0; k < kinds; ++k)
        for (std::size_t g = 0; g < filled[k].size(); ++g) {
          const std::byte* at = ghost(m, mixed::sizes[k], g);
          if (!filled[k][g] && std::any_of(at, at + mixed::sizes[k], [](std::byte b) { return b != gap; }))
            return ::testing::AssertionFailure() << "round " << round << " channel " << c << ": gap " << g << " of the "
                                                 << mixed::sizes[k] << "-byte ghosts was written";
        }
    }
    return ::testing::AssertionSuccess();
  }

  // Every way of sending, each round's values checked.
  void run_rounds() {
    for (int round = 1; round <= 6; ++round) {
      fill(round);
      switch (round % 3) {
        case 0: plan.exchange(); break;
        case 1:
          for (std::size_t c = 0; c < messages.size(); ++c) plan.send(c, right);
          for (std::size_t c = 0; c < messages.size(); ++c) plan.wait_recv(c, left);
          for (std::size_t c = 0; c < messages.size(); ++c) plan.wait_send(c, right);
          break;
        default:
          plan.start();
          plan.finish();
          break;
      }
      EXPECT_TRUE(check(round));
      w.barrier();  // nobody refills its blocks before its neighbour has checked
      if (::testing::Test::HasFailure()) return;
    }
  }
};

World world_with(IntraPath path, bool share_cores) {
  Settings settings = Settings::from_environment();
  settings.intra_path = path;
  if (share_cores) settings.threads_per_rank = 1 << 16;  // more threads than any machine has cores
  return World(gwtest::world().comm(), settings);
}

// Some rank has a node peer on the ring other than itself: only then do intra-node paths differ.
bool ring_has_node_peers() {
  World& w = gwtest::world();
  const int right = (w.rank() + 1) % w.size();
  int mine = right != w.rank() && w.shares_memory_with(right), any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, w.comm());
  return any != 0;
}

void run_on(IntraPath path, bool share_cores) {
  World w = world_with(path, share_cores);
  MixedRing ring(w);
  const std::string text = ring.plan.describe();
  // Split where ranks have cores of their own, by the automatic choice, between node peers.
  const bool split = path == IntraPath::automatic && !w.oversubscribed() && ring.right != w.rank() &&
                     w.shares_memory_with(ring.right);
  for (std::size_t c = 0; c < ring.messages.size(); ++c) {
    const std::string first_part =
        "send    channel " + std::to_string(c) + " with rank " + std::to_string(ring.right) + " (part 1 of 2)";
    EXPECT_EQ(text.find(first_part) != std::string::npos, split) << text;
  }
  ring.run_rounds();
}

}  // namespace

TEST(PlanMixedSizes, AutomaticPath) { run_on(IntraPath::automatic, false); }

TEST(PlanMixedSizes, AutomaticPathOnSharedCores) {
  if (!ring_has_node_peers()) GTEST_SKIP() << "no node peers: the intra-node path does not matter";
  run_on(IntraPath::automatic, true);
}

TEST(PlanMixedSizes, EveryForcedIntraPath) {
  if (!ring_has_node_peers()) GTEST_SKIP() << "no node peers: the intra-node path does not matter";
  for (IntraPath path : {IntraPath::in_place, IntraPath::staged, IntraPath::pushed}) {
    run_on(path, false);
    if (HasFailure()) return;
  }
}
