// SPDX-License-Identifier: BSD-3-Clause
// The commit descriptor's wire format (descriptor.hpp), encoder and decoder side by side: a header
// (magic, version, body length, checksum of the body), then the body field by field. A field added
// to one side and not the other changes every descriptor's layout, which the round-trip test
// (tests/halo/descriptor_test.cpp) catches.
#include "halo/commit/descriptor.hpp"

#include <algorithm>
#include <sstream>

#include "ghostwire/error.hpp"
#include "halo/commit/wire.hpp"

namespace ghostwire::detail {
namespace {

constexpr std::uint64_t magic = 0x5449'4d4d'4f43'5747ull;  // "GWCOMMIT"
constexpr std::uint64_t version = 5;
constexpr std::size_t header_bytes = 4 * sizeof(std::uint64_t);

// FNV-1a: a flipped bit anywhere in the body changes it.
std::uint64_t checksum(std::span<const std::byte> bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (std::byte b : bytes) hash = (hash ^ static_cast<std::uint64_t>(b)) * 0x100000001b3ull;
  return hash;
}

void write(WireWriter& out, const Signature& s) {
  out.u64(s.parts.size());
  for (auto [size, count] : s.parts) {
    out.u64(size);
    out.u64(count);
  }
}
Signature read_signature(WireReader& in) {
  Signature s;
  s.parts.resize(in.count(16, "signature part"));
  for (auto& [size, count] : s.parts) {
    size = in.u64();
    count = in.u64();
    if (size == 0) in.corrupt("a signature part has elements of 0 bytes");
  }
  return s;
}

}  // namespace

void write_locations(WireWriter& out, const std::vector<PieceLocation>& pieces) {
  out.u64(pieces.size());
  for (const PieceLocation& piece : pieces) {
    out.i64(piece.segment);
    out.u64(piece.offset_bytes);
    out.u64(piece.element_size);
    out.layout(piece.layout);
  }
}
std::vector<PieceLocation> read_locations(WireReader& in) {
  std::vector<PieceLocation> pieces(in.count(40, "piece"));
  for (PieceLocation& piece : pieces) {
    piece.segment = in.i64();
    piece.offset_bytes = in.u64();
    piece.element_size = in.u64();
    if (piece.segment < 0 || piece.element_size == 0)
      in.corrupt("a piece names segment " + std::to_string(piece.segment) + " with elements of " +
                 std::to_string(piece.element_size) + " bytes");
    piece.layout = in.layout();
  }
  return pieces;
}

namespace {

void write(WireWriter& out, const SideDescriptor& side) {
  out.u64(side.candidates.size());
  for (std::uint8_t index : side.candidates) out.u64(index);
  out.u64(side.segment_offset);
  out.u64(side.sections.size());
  for (const PathSection& section : side.sections) {
    out.u64(section.path);
    out.u64(section.version);
    out.u64(section.bytes.size());
    out.raw(section.bytes);
  }
}
SideDescriptor read_side(WireReader& in) {
  SideDescriptor side;
  side.candidates.resize(in.count(8, "path candidate"));
  for (std::uint8_t& index : side.candidates) {
    const std::uint64_t value = in.u64();
    if (value >= 64) in.corrupt("a path candidate " + std::to_string(value));
    index = static_cast<std::uint8_t>(value);
  }
  side.segment_offset = in.u64();
  side.sections.resize(in.count(24, "path section"));
  for (PathSection& section : side.sections) {
    section.path = in.u64();
    section.version = in.u64();
    section.bytes = in.raw(in.u64());
  }
  return side;
}

void write(WireWriter& out, const SendDescriptor& send) {
  write(out, send.signature);
  out.u64(send.split_runs.size());
  for (const SplitRun& run : send.split_runs) {
    out.u64(run.bytes);
    out.u64(run.part);
  }
  out.u64(send.parts.size());
  for (const SideDescriptor& part : send.parts) write(out, part);
}
SendDescriptor read_send(WireReader& in) {
  SendDescriptor send;
  send.signature = read_signature(in);
  send.split_runs.resize(in.count(16, "split run"));
  std::uint64_t split_bytes = 0;
  for (SplitRun& run : send.split_runs) {
    run = {in.u64(), in.u64()};
    if (run.part > 1 || run.bytes == 0) in.corrupt("a split run of " + std::to_string(run.bytes) + " bytes in part " +
                                                   std::to_string(run.part));
    split_bytes += run.bytes;
  }
  if (!send.split_runs.empty() && split_bytes != send.signature.bytes())
    in.corrupt("its split runs hold " + std::to_string(split_bytes) + " bytes of a " +
               std::to_string(send.signature.bytes()) + "-byte message");
  send.parts.resize(in.count(8, "message part"));
  if (send.parts.size() != (send.split_runs.empty() ? 1u : 2u))
    in.corrupt("a message in " + std::to_string(send.parts.size()) + " parts");
  for (SideDescriptor& part : send.parts) part = read_side(in);
  return send;
}

void write(WireWriter& out, const ReceiveDescriptor& receive) {
  write(out, receive.signature);
  write(out, receive.side);
}
ReceiveDescriptor read_receive(WireReader& in) {
  ReceiveDescriptor receive;
  receive.signature = read_signature(in);
  receive.side = read_side(in);
  return receive;
}

void write_body(WireWriter& out, const NeighbourDescriptor& d) {
  out.u64(d.paths);
  out.u64(d.neighbours);
  out.u64(d.receiver_index);
  out.u64(d.posted_offset);
  out.u64(d.acknowledgement_offset);
  out.flag(d.acknowledge_by_reply);
  out.u64(d.partitions.size());
  for (const PartitionCounts& counts : d.partitions) {
    out.u64(counts.send);
    out.u64(counts.receive);
    out.flag(counts.send_combined);
    out.flag(counts.receive_combined);
    for (const std::vector<std::uint64_t>* cut : {&counts.send_cut, &counts.receive_cut}) {
      out.u64(cut->size());
      for (std::uint64_t elements : *cut) out.u64(elements);
    }
  }
  out.u64(d.channels.size());
  for (const ChannelDescriptor& channel : d.channels) {
    out.flag(channel.send.has_value());
    if (channel.send) write(out, *channel.send);
    out.flag(channel.receive.has_value());
    if (channel.receive) write(out, *channel.receive);
  }
}
NeighbourDescriptor read_body(WireReader& in) {
  NeighbourDescriptor d;
  d.paths = in.u64();
  d.neighbours = in.u64();
  d.receiver_index = in.u64();
  if (d.receiver_index >= d.neighbours)
    in.corrupt("receiver index " + std::to_string(d.receiver_index) + " of " + std::to_string(d.neighbours) +
               " neighbours");
  d.posted_offset = in.u64();
  d.acknowledgement_offset = in.u64();
  d.acknowledge_by_reply = in.flag();
  d.partitions.resize(in.count(16, "user channel"));
  std::uint64_t plan_channels = 0;
  for (PartitionCounts& counts : d.partitions) {
    const std::uint64_t send = in.u64(), receive = in.u64();
    if (send == 0 || receive == 0 || send > 0xFFFFFFFFu || receive > 0xFFFFFFFFu)
      in.corrupt("a channel in " + std::to_string(send) + " and " + std::to_string(receive) + " partitions");
    counts = {static_cast<std::uint32_t>(send), static_cast<std::uint32_t>(receive), in.flag(), in.flag(), {}, {}};
    for (std::vector<std::uint64_t>* cut : {&counts.send_cut, &counts.receive_cut}) {
      cut->resize(in.count(8, "partition"));
      for (std::uint64_t& elements : *cut) elements = in.u64();
    }
    // Combined partitions travel in one message on one plan channel.
    plan_channels += std::max(counts.send_combined ? 1 : send, counts.receive_combined ? 1 : receive);
  }
  d.channels.resize(in.count(16, "channel"));
  if (d.channels.size() < plan_channels)
    in.corrupt(std::to_string(d.channels.size()) + " channels cannot hold its " + std::to_string(plan_channels) +
               " partitions");
  for (ChannelDescriptor& channel : d.channels) {
    if (in.flag()) channel.send = read_send(in);
    if (in.flag()) channel.receive = read_receive(in);
  }
  if (in.remaining() != 0) in.corrupt(std::to_string(in.remaining()) + " bytes left after its last field");
  return d;
}

}  // namespace

const PathSection* SideDescriptor::section(std::uint64_t path) const {
  for (const PathSection& s : sections)
    if (s.path == path) return &s;
  return nullptr;
}

std::uint64_t Signature::bytes() const {
  std::uint64_t total = 0;
  for (auto [size, count] : parts) total += size * count;
  return total;
}

std::string Signature::describe() const {
  if (parts.empty()) return "nothing";
  std::ostringstream text;
  for (std::size_t i = 0; i < parts.size(); ++i)
    text << (i ? " + " : "") << parts[i].second << " elements of " << parts[i].first << " bytes";
  text << " (" << bytes() << " bytes)";
  return text.str();
}

std::vector<std::byte> encode(const NeighbourDescriptor& descriptor) {
  WireWriter body;
  write_body(body, descriptor);
  WireWriter out;
  out.u64(magic);
  out.u64(version);
  out.u64(body.bytes().size());
  out.u64(checksum(body.bytes()));
  out.bytes().insert(out.bytes().end(), body.bytes().begin(), body.bytes().end());
  return std::move(out.bytes());
}

NeighbourDescriptor decode(std::span<const std::byte> bytes, const std::string& from) {
  WireReader header(bytes.first(std::min(bytes.size(), header_bytes)), from);
  const std::uint64_t found_magic = header.u64(), found_version = header.u64();
  if (found_magic != magic) header.corrupt("it does not start with a ghostwire descriptor's mark");
  if (found_version != version)
    raise(Errc::mismatch, "the commit descriptor from " + from + " has format version " +
                              std::to_string(found_version) + " but this rank's has " + std::to_string(version) +
                              ": the ranks run different builds of ghostwire");
  const std::uint64_t body_bytes = header.u64(), expected_sum = header.u64();
  const std::span<const std::byte> body = bytes.subspan(header_bytes);
  WireReader in(body, from);
  if (body_bytes != body.size())
    in.corrupt("its header announces " + std::to_string(body_bytes) + " bytes but " + std::to_string(body.size()) +
               " came");
  if (checksum(body) != expected_sum) in.corrupt("its checksum does not match its bytes");
  return read_body(in);
}

}  // namespace ghostwire::detail
