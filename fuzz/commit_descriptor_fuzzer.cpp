// SPDX-License-Identifier: BSD-3-Clause
// The commit descriptor a rank receives from each neighbour (src/halo/commit/descriptor.hpp):
// decode() returns a descriptor or throws ghostwire::Error naming the neighbour; what it returns
// encodes back to the bytes it came from; every path section it carries is then read as piece
// locations (what the in-place and pushed paths read at build), which returns them or throws. The
// first input byte picks what the rest is: odd, a descriptor's body, wrapped here in a valid header
// (mark, version, length, checksum) so the body parser is reached past the checksum; even, the
// whole descriptor as given.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "ghostwire/error.hpp"
#include "halo/commit/descriptor.hpp"
#include "halo/commit/wire.hpp"

namespace {

std::uint64_t checksum(const std::byte* data, std::size_t size) {  // the decoder's FNV-1a
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < size; ++i) hash = (hash ^ static_cast<std::uint64_t>(data[i])) * 0x100000001b3ull;
  return hash;
}

// The mark and version come from the encoder itself, so the body mode follows format changes.
std::vector<std::byte> with_header(const std::byte* body, std::size_t size) {
  ghostwire::detail::NeighbourDescriptor empty;
  empty.neighbours = 1;
  const std::vector<std::byte> reference = ghostwire::detail::encode(empty);
  std::uint64_t header[4] = {0, 0, size, checksum(body, size)};
  std::memcpy(header, reference.data(), 2 * sizeof(std::uint64_t));
  std::vector<std::byte> bytes(sizeof header + size);
  std::memcpy(bytes.data(), header, sizeof header);
  if (size) std::memcpy(bytes.data() + sizeof header, body, size);
  return bytes;
}

// Every section as the piece locations a path would read from it.
void read_sections(const ghostwire::detail::NeighbourDescriptor& descriptor) {
  auto read = [](const ghostwire::detail::SideDescriptor& side) {
    for (const ghostwire::detail::PathSection& section : side.sections) {
      try {
        ghostwire::detail::WireReader in(section.bytes, "rank 1");
        ghostwire::detail::read_locations(in);
      } catch (const ghostwire::Error&) {
      }
    }
  };
  for (const ghostwire::detail::ChannelDescriptor& channel : descriptor.channels) {
    if (channel.send)
      for (const ghostwire::detail::SideDescriptor& part : channel.send->parts) read(part);
    if (channel.receive) read(channel.receive->side);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto* rest = reinterpret_cast<const std::byte*>(data + 1);
  const std::vector<std::byte> bytes = (data[0] & 1) ? with_header(rest, size - 1)
                                                      : std::vector<std::byte>(rest, rest + (size - 1));
  try {
    const ghostwire::detail::NeighbourDescriptor descriptor = ghostwire::detail::decode(bytes, "rank 1");
    if (ghostwire::detail::encode(descriptor) != bytes) std::abort();  // decoded, but not what was sent
    read_sections(descriptor);
  } catch (const ghostwire::Error&) {
  }
  return 0;
}
