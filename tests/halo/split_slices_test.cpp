// SPDX-License-Identifier: BSD-3-Clause
// Split messages of mixed element sizes, as commit cuts them, without MPI: the sender splits its
// pieces into dense ones (part 0, read in place) and the others (part 1, staged), the receiver cuts
// its own pieces along the sender's byte runs (slice_pieces), and the parts are copied as the two
// paths copy them. Every order of 1, 2, 4, 8 and 16-byte elements, boxes and index lists; every
// ghost element must hold the value of the element it mirrors, every gap its fill.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <vector>

#include "ghostwire/error.hpp"
#include "halo/combined_partitions.hpp"  // PlanState's members, complete where one is made
#include "halo/commit/slot_pieces.hpp"
#include "halo/copy_program.hpp"
#include "halo/commit/slot_parts.hpp"
#include "halo/reverse.hpp"
#include "mixed_message.hpp"

namespace {

using namespace ghostwire;
using namespace ghostwire::detail;
namespace mixed = gwtest::mixed;

constexpr std::byte gap{0xA5};
constexpr int sender_rank = 1, round = 2;

std::size_t region_of(std::size_t size) {
  return static_cast<std::size_t>(std::find(std::begin(mixed::sizes), std::end(mixed::sizes), size) -
                                  std::begin(mixed::sizes));
}

// One side's memory: a line-aligned block per element size (so that rows are dense and columns
// not, as in a Segment), each a region of a PlanState with no World: splitting and slicing read
// only regions and pieces.
struct Side {
  struct alignas(64) Line {
    std::byte bytes[64];
  };
  std::array<std::vector<Line>, 5> blocks;
  PlanState plan;

  explicit Side(const std::array<std::size_t, 5>& elements) {
    for (std::size_t k = 0; k < 5; ++k) {
      const std::size_t bytes = elements[k] * mixed::sizes[k];
      blocks[k].resize((bytes + 63) / 64);
      plan.regions.push_back({0, 0, reinterpret_cast<std::byte*>(blocks[k].data()), bytes, mixed::sizes[k]});
    }
  }
  std::byte* at(std::size_t size, std::size_t index) { return plan.regions[region_of(size)].base + index * size; }
  std::vector<PieceSpec> specs(const std::vector<mixed::Piece>& pieces) const {
    std::vector<PieceSpec> out;
    for (const mixed::Piece& piece : pieces) out.push_back({static_cast<int>(region_of(piece.size)), piece.layout});
    return out;
  }
};

std::array<std::size_t, 5> ghost_counts(const std::vector<mixed::Piece>& received) {
  std::array<std::size_t, 5> counts{};
  for (std::size_t k = 0; k < 5; ++k) counts[k] = mixed::ghost_elements(received, mixed::sizes[k]);
  return counts;
}

std::string text(std::span<const std::size_t> order) {
  std::string out = "sizes";
  for (std::size_t s : order) {
    out += ' ';
    out += std::to_string(s);
  }
  return out;
}

// Part 0 copied from the sender's pieces, as the in-place path does; part 1 packed into a staging
// buffer and copied out of it, as the staged path does.
void move_parts(const PlanState& sender, const SplitPieces& split, const SlicedPieces& sliced) {
  CopyProgram::build(pieces_of(sender, split.parts[0]), sliced.pieces[0]).run();
  std::vector<std::byte> staging(message_bytes(sender, split.parts[1]));
  const Layout whole = Layout::contiguous(0, staging.size());
  const Piece buffer{staging.data(), 1, &whole};
  CopyProgram::build(pieces_of(sender, split.parts[1]), {&buffer, 1}, true).run();
  CopyProgram::build({&buffer, 1}, sliced.pieces[1]).run();
}

// Every ghost element of the message holds its sender element's value; every other one its fill.
void check_ghosts(Side& receiver, const std::vector<mixed::Piece>& sent, const std::vector<mixed::Piece>& received,
                  const std::string& what) {
  const std::vector<mixed::Element> message = mixed::elements_of(sent), ghosts = mixed::elements_of(received);
  ASSERT_EQ(message.size(), ghosts.size()) << what;
  std::array<std::vector<bool>, 5> filled;
  for (std::size_t k = 0; k < 5; ++k) filled[k].resize(mixed::ghost_elements(received, mixed::sizes[k]));
  for (std::size_t i = 0; i < message.size(); ++i) {
    const std::size_t s = message[i].size;
    ASSERT_EQ(ghosts[i].size, s) << what << ": element " << i;
    ASSERT_TRUE(mixed::holds(receiver.at(s, ghosts[i].index), s, message[i].index, sender_rank, round))
        << what << ": message element " << i << " (" << s << " bytes, sender element " << message[i].index
        << ") in ghost element " << ghosts[i].index;
    filled[region_of(s)][ghosts[i].index] = true;
  }
  for (std::size_t k = 0; k < 5; ++k)
    for (std::size_t g = 0; g < filled[k].size(); ++g) {
      if (filled[k][g]) continue;
      const std::byte* at = receiver.at(mixed::sizes[k], g);
      ASSERT_TRUE(std::all_of(at, at + mixed::sizes[k], [](std::byte b) { return b == gap; }))
          << what << ": gap " << g << " of the " << mixed::sizes[k] << "-byte ghosts was written";
    }
}

// The message of `order` from sender to receiver, split and sliced as commit does.
void send_split(std::span<const std::size_t> order) {
  const std::string what = text(order);
  const std::vector<mixed::Piece> sent = mixed::send_pieces(order), received = mixed::receive_pieces(sent);
  Side sender({256, 256, 256, 256, 256}), receiver(ghost_counts(received));
  for (std::size_t s : mixed::sizes)
    for (std::size_t e = 0; e < mixed::block_elements; ++e) mixed::encode(sender.at(s, e), s, e, sender_rank, round);
  for (auto& block : receiver.blocks)
    for (auto& line : block) std::fill(std::begin(line.bytes), std::end(line.bytes), gap);
  sender.plan.send_pieces = {sender.specs(sent)};
  receiver.plan.receive_pieces = {receiver.specs(received)};

  const SplitPieces split = split_pieces(sender.plan, 0);
  // One run of every dense piece, one of every sparse one, then one run per piece.
  ASSERT_EQ(split.runs.size(), 2 + 2 * order.size()) << what;
  ASSERT_EQ(split.parts[0].size(), 2 * order.size()) << what;
  const SlicedPieces sliced = slice_pieces(receiver.plan, receiver.plan.receive_pieces[0], split.runs);
  move_parts(sender.plan, split, sliced);
  check_ghosts(receiver, sent, received, what);
}

}  // namespace

// The runs of one part hold several element sizes, whose bytes the larger sizes do not divide; a
// slice once demanded that they did ("a split message's run boundary falls inside an element").
TEST(SplitSlices, EveryOrderOfElementSizes) {
  std::array<std::size_t, 5> order{1, 2, 4, 8, 16};
  int orders = 0;
  do {
    send_split(order);
    if (testing::Test::HasFatalFailure()) return;
    ++orders;
  } while (std::next_permutation(order.begin(), order.end()));
  EXPECT_EQ(orders, 120);
}

TEST(SplitSlices, RepeatedAndAdjacentSizes) {
  const std::vector<std::size_t> order{8, 8, 1, 16, 1, 4, 2, 4, 2};
  send_split(order);
}

// What slicing still refuses (a descriptor that passed its checks cannot ask for it): a run that
// ends inside an element, and runs holding more or fewer bytes than the receiver's pieces.
TEST(SplitSlices, RunsThatDoNotFitTheElementsAreInternalErrors) {
  Side receiver({0, 0, 0, 4, 0});
  receiver.plan.receive_pieces = {receiver.specs({{8, Layout::contiguous(0, 4)}})};
  const auto& pieces = receiver.plan.receive_pieces[0];
  auto code = [&](std::vector<SplitRun> runs) {
    try {
      slice_pieces(receiver.plan, pieces, runs);
    } catch (const Error& e) {
      return e.code();
    }
    return Errc::ok;
  };
  EXPECT_EQ(code({{12, 0}, {20, 1}}), Errc::internal);
  EXPECT_EQ(code({{16, 0}, {8, 1}}), Errc::internal);
  EXPECT_EQ(code({{16, 0}, {24, 1}}), Errc::internal);
  EXPECT_EQ(code({{16, 0}, {16, 1}}), Errc::ok);
}
