// SPDX-License-Identifier: BSD-3-Clause
// The commit descriptor without MPI: a round trip keeps every field; a descriptor cut short at any
// length, with any byte flipped, from another format version, or structurally wrong behind a valid
// checksum is an error naming the neighbour, never a descriptor read from garbage.
#include "halo/commit/descriptor.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ghostwire/error.hpp"
#include "halo/commit/wire.hpp"

namespace {

using namespace ghostwire;
using namespace ghostwire::detail;

NeighbourDescriptor sample() {
  NeighbourDescriptor d;
  d.paths = 0x1234'5678'9abc'def0ull;
  d.neighbours = 5;
  d.receiver_index = 3;
  d.posted_offset = 0;
  d.acknowledgement_offset = 128;
  d.acknowledge_by_reply = true;
  // User channel 0: plan channels 0 and 1; user channel 1: four partitions combined, on plan channel 2.
  d.partitions = {{2, 1, false, false, {}, {}}, {4, 1, true, false, {3, 1, 4, 1}, {}}};
  d.channels.resize(3);
  SendDescriptor send;
  send.signature.parts = {{8, 100}, {4, 7}};
  send.split_runs = {{800, 0}, {28, 1}};
  // Part 0 with a section of piece locations (as the in-place path writes it), part 1 without.
  WireWriter locations;
  write_locations(locations, {{2, 64, 8, Layout::box(10, {4, 5}, {1, 12})}, {3, 0, 4, Layout::indices({9, 3, 4, 5})}});
  send.parts.resize(2);
  send.parts[0].candidates = {1};
  send.parts[0].sections.push_back({1, 1, locations.bytes()});
  send.parts[1].candidates = {0, 2};
  send.parts[1].segment_offset = 4096;
  send.parts[1].sections.push_back({0, 3, {std::byte{7}, std::byte{8}, std::byte{9}}});  // not a multiple of 8
  send.parts[1].sections.push_back({2, 1, {}});                                          // no bytes at all
  d.channels[0].send = send;
  ReceiveDescriptor receive;
  receive.signature.parts = {{8, 16}};
  receive.side.candidates = {5};
  receive.side.segment_offset = 256;
  d.channels[0].receive = receive;
  d.channels[2].receive = ReceiveDescriptor{};  // channel 1: nothing either way
  return d;
}

void expect_error(const std::vector<std::byte>& bytes, Errc code, const std::string& fragment) {
  try {
    decode(bytes, "rank 7");
    ADD_FAILURE() << "decoded without an error (" << bytes.size() << " bytes)";
  } catch (const Error& error) {
    EXPECT_EQ(static_cast<int>(error.code()), static_cast<int>(code)) << error.what();
    const std::string message = error.what();
    EXPECT_NE(message.find("rank 7"), std::string::npos) << message;
    EXPECT_NE(message.find(fragment), std::string::npos) << message;
  }
}

// The decoder's checksum, so that a test can write a body that passes it.
std::uint64_t fnv(const std::byte* data, std::size_t size) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < size; ++i) hash = (hash ^ static_cast<std::uint64_t>(data[i])) * 0x100000001b3ull;
  return hash;
}
void reseal(std::vector<std::byte>& bytes) {
  const std::uint64_t sum = fnv(bytes.data() + 32, bytes.size() - 32), length = bytes.size() - 32;
  std::memcpy(bytes.data() + 16, &length, 8);
  std::memcpy(bytes.data() + 24, &sum, 8);
}
void put_u64(std::vector<std::byte>& bytes, std::size_t at, std::uint64_t value) {
  std::memcpy(bytes.data() + at, &value, 8);
}

TEST(Descriptor, RoundTripKeepsEveryField) {
  const NeighbourDescriptor d = sample();
  const std::vector<std::byte> bytes = encode(d);
  const NeighbourDescriptor back = decode(bytes, "rank 7");
  EXPECT_EQ(back.neighbours, 5u);
  EXPECT_EQ(back.receiver_index, 3u);
  EXPECT_EQ(back.acknowledgement_offset, 128u);
  EXPECT_TRUE(back.acknowledge_by_reply);
  ASSERT_EQ(back.partitions.size(), 2u);
  EXPECT_EQ(back.partitions[0], d.partitions[0]);
  EXPECT_EQ(back.partitions[1].send_cut, (std::vector<std::uint64_t>{3, 1, 4, 1}));
  EXPECT_TRUE(back.partitions[1].send_combined);
  ASSERT_EQ(back.channels.size(), 3u);
  ASSERT_TRUE(back.channels[0].send && back.channels[0].receive);
  EXPECT_FALSE(back.channels[1].send || back.channels[1].receive);
  EXPECT_FALSE(back.channels[2].send);
  ASSERT_TRUE(back.channels[2].receive);
  const SendDescriptor& send = *back.channels[0].send;
  EXPECT_EQ(send.signature, d.channels[0].send->signature);
  ASSERT_EQ(send.split_runs.size(), 2u);
  EXPECT_EQ(send.split_runs[1].bytes, 28u);
  EXPECT_EQ(send.split_runs[1].part, 1u);
  ASSERT_EQ(send.parts.size(), 2u);
  EXPECT_EQ(send.parts[1].candidates, (std::vector<std::uint8_t>{0, 2}));
  EXPECT_EQ(send.parts[1].segment_offset, 4096u);
  ASSERT_NE(send.parts[1].section(0), nullptr);
  EXPECT_EQ(send.parts[1].section(0)->version, 3u);
  EXPECT_EQ(send.parts[1].section(0)->bytes, d.channels[0].send->parts[1].sections[0].bytes);
  EXPECT_EQ(send.parts[1].section(1), nullptr);
  ASSERT_NE(send.parts[1].section(2), nullptr);
  EXPECT_TRUE(send.parts[1].section(2)->bytes.empty());
  ASSERT_NE(send.parts[0].section(1), nullptr);
  WireReader in(send.parts[0].section(1)->bytes, "rank 7");
  const std::vector<PieceLocation> pieces = read_locations(in);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].segment, 2);
  EXPECT_EQ(pieces[0].offset_bytes, 64u);
  EXPECT_EQ(pieces[0].layout.describe(), Layout::box(10, {4, 5}, {1, 12}).describe());
  EXPECT_EQ(pieces[1].layout.index_list(), (std::vector<std::size_t>{9, 3, 4, 5}));
  EXPECT_EQ(in.remaining(), 0u);
  const ReceiveDescriptor& receive = *back.channels[0].receive;
  EXPECT_EQ(receive.side.candidates, (std::vector<std::uint8_t>{5}));
  EXPECT_EQ(receive.side.segment_offset, 256u);
  EXPECT_EQ(back.paths, d.paths);
  EXPECT_EQ(encode(back), bytes);  // nothing lost, nothing added
}

TEST(Descriptor, ShortAtEveryLengthIsAnError) {
  const std::vector<std::byte> bytes = encode(sample());
  for (std::size_t length = 0; length < bytes.size(); ++length)
    expect_error(std::vector<std::byte>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(length)),
                 Errc::internal, "corrupt");
}

TEST(Descriptor, EveryFlippedByteIsAnError) {
  const std::vector<std::byte> bytes = encode(sample());
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    if (at >= 8 && at < 16) continue;  // the version: below
    std::vector<std::byte> corrupt = bytes;
    corrupt[at] ^= std::byte{0x10};
    expect_error(corrupt, Errc::internal, "corrupt");
  }
}

TEST(Descriptor, AnotherVersionIsAMismatch) {
  std::vector<std::byte> bytes = encode(sample());
  put_u64(bytes, 8, 2);
  expect_error(bytes, Errc::mismatch, "different builds of ghostwire");
}

TEST(Descriptor, WrongStructureBehindAValidChecksumIsAnError) {
  const std::vector<std::byte> bytes = encode(sample());
  // Body fields: paths 32, neighbours 40, receiver index 48, offsets 56 and 64, by-reply 72, user
  // channel count 80, per user channel its partitions (send 88, receive 96, send combined 104,
  // receive combined 112, the two cuts' lengths and values: 120, 128; then channel 1 from 136: send
  // combined at 152), plan channel count 216.
  std::vector<std::byte> wrong = bytes;
  put_u64(wrong, 48, 5);  // receiver index not below the neighbour count
  reseal(wrong);
  expect_error(wrong, Errc::internal, "receiver index");
  wrong = bytes;
  put_u64(wrong, 72, 2);  // a flag neither 0 nor 1
  reseal(wrong);
  expect_error(wrong, Errc::internal, "flag");
  wrong = bytes;
  put_u64(wrong, 80, std::uint64_t{1} << 60);  // a count no body could hold
  reseal(wrong);
  expect_error(wrong, Errc::internal, "count");
  wrong = bytes;
  put_u64(wrong, 88, 0);  // a channel in no partition
  reseal(wrong);
  expect_error(wrong, Errc::internal, "0 and 1 partitions");
  wrong = bytes;
  put_u64(wrong, 88, 5);  // more partitions than the plan has channels for
  reseal(wrong);
  expect_error(wrong, Errc::internal, "3 channels cannot hold its 6 partitions");
  wrong = bytes;
  put_u64(wrong, 152, 0);  // the combined channel's partitions as plan channels of their own
  reseal(wrong);
  expect_error(wrong, Errc::internal, "3 channels cannot hold its 6 partitions");
  wrong = bytes;
  wrong.resize(wrong.size() + 8);  // a field too many
  reseal(wrong);
  expect_error(wrong, Errc::internal, "left after");
}

}  // namespace
