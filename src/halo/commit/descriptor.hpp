// SPDX-License-Identifier: BSD-3-Clause
// The per-neighbour descriptor of a commit: what a rank tells each neighbour about both directions
// of every channel, so that both ranks of a slot check both directions (and report a mismatch on
// both) and each builds its side of the slot. The encoder and decoder sit side by side in
// descriptor.cpp; a descriptor that is short, corrupt or from another version of ghostwire is an
// error naming the neighbour, never read as garbage. docs/plans.md, "How a plan works inside".
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ghostwire/layout.hpp"

namespace ghostwire::detail {

// The (element size, count) sequence both sides of a message must agree on; neighbouring pieces
// with the same element size merged.
struct Signature {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> parts;
  std::uint64_t bytes() const;
  std::string describe() const;  // "4 elements of 8 bytes (32 bytes)"
  bool operator==(const Signature&) const = default;
};

// Where a piece of a slot's layout lives, so that a node peer can map it (written into a path's
// section by write_locations, read back by read_locations).
struct PieceLocation {
  std::int64_t segment = -1;
  std::uint64_t offset_bytes = 0;  // of the region within the segment's data
  std::uint64_t element_size = 1;
  Layout layout;
};

// A message split in two parts (split_runs): which bytes of the message, in message order, go in
// part 0 (read in place) and which in part 1 (staged).
struct SplitRun {
  std::uint64_t bytes = 0;
  std::uint64_t part = 0;
};

// A path's own part of a side's descriptor (PathType::describe_side), tagged with the path's
// registry index and its section version.
struct PathSection {
  std::uint64_t path = 0;
  std::uint64_t version = 1;
  std::vector<std::byte> bytes;
  bool operator==(const PathSection&) const = default;
};

// One direction (one part of a split message) of a slot, as the describing rank's end of it.
struct SideDescriptor {
  std::vector<std::uint8_t> candidates;  // registry indices, preferred first (slot_choice.hpp)
  std::uint64_t segment_offset = 0;      // its memory in its part of the plan segment
  std::vector<PathSection> sections;     // of candidates that have something to say
  const PathSection* section(std::uint64_t path) const;
};

struct SendDescriptor {  // what the describing rank sends on a channel
  Signature signature;
  std::vector<SplitRun> split_runs;  // empty unless the message is split (commit/slot_parts.hpp)
  std::vector<SideDescriptor> parts;  // one, or two for a split message
};

struct ReceiveDescriptor {  // what it receives
  Signature signature;
  SideDescriptor side;
};

struct ChannelDescriptor {
  std::optional<SendDescriptor> send;
  std::optional<ReceiveDescriptor> receive;
};

// Into how many partitions the describing rank cuts one user channel's messages with the receiver
// (the one it sends, the one it receives), and whether they travel combined into one message
// (halo/combined_partitions.hpp) rather than as plan channels of their own.
struct PartitionCounts {
  std::uint32_t send = 1, receive = 1;
  bool send_combined = false, receive_combined = false;
  // A combined message's elements per partition (checked against the other side's cut, as separate
  // partitions are checked slot by slot); empty otherwise.
  std::vector<std::uint64_t> send_cut, receive_cut;
  bool operator==(const PartitionCounts&) const = default;
};

struct NeighbourDescriptor {
  std::uint64_t paths = 0;           // the describing rank's registry_fingerprint()
  std::uint64_t neighbours = 0;      // of the describing rank
  std::uint64_t receiver_index = 0;  // the receiver's index in that list
  std::uint64_t posted_offset = 0, acknowledgement_offset = 0;  // its counters in its plan segment
  bool acknowledge_by_reply = false;
  std::vector<PartitionCounts> partitions;  // by the user's channel
  std::vector<ChannelDescriptor> channels;  // by the plan's channel (a partition each, when partitioned)
};

class WireWriter;
class WireReader;
void write_locations(WireWriter& out, const std::vector<PieceLocation>& pieces);
std::vector<PieceLocation> read_locations(WireReader& in);

std::vector<std::byte> encode(const NeighbourDescriptor& descriptor);
// `from` names the neighbour in the error ("rank 3"): Errc::mismatch for another version of the
// format, Errc::internal for a short or corrupt descriptor.
NeighbourDescriptor decode(std::span<const std::byte> bytes, const std::string& from);

}  // namespace ghostwire::detail
