// SPDX-License-Identifier: BSD-3-Clause
// Layouts on the wire (wire.hpp): kind, then the kind's fields.
#include "halo/commit/wire.hpp"

#include "ghostwire/error.hpp"

namespace ghostwire::detail {

void WireWriter::layout(const Layout& layout) {
  u64(static_cast<std::uint64_t>(layout.kind()));
  switch (layout.kind()) {
    case Layout::Kind::box:
      u64(static_cast<std::uint64_t>(layout.dimensions()));
      u64(layout.start());
      for (int d = 0; d < layout.dimensions(); ++d) {
        u64(layout.extent(d));
        i64(layout.stride(d));
      }
      return;
    case Layout::Kind::indices:
      u64(layout.index_list().size());
      for (std::size_t index : layout.index_list()) u64(index);
      return;
    case Layout::Kind::ranges:
      u64(layout.range_list().size());
      for (const Layout::Range& range : layout.range_list()) {
        u64(range.start);
        u64(range.count);
      }
      return;
  }
}

void WireReader::corrupt(const std::string& what) const {
  raise(Errc::internal, "the commit descriptor from " + from_ + " is corrupt: " + what);
}

bool WireReader::flag() {
  const std::uint64_t value = u64();
  if (value > 1) corrupt("a flag holds " + std::to_string(value));
  return value == 1;
}

std::size_t WireReader::count(std::size_t item_bytes, const char* what) {
  const std::uint64_t value = u64();
  if (value > remaining() / item_bytes)
    corrupt(std::string(what) + " count " + std::to_string(value) + " exceeds what the remaining " +
            std::to_string(remaining()) + " bytes can hold");
  return static_cast<std::size_t>(value);
}

Layout WireReader::layout() {
  const std::uint64_t kind = u64();
  try {
    switch (kind) {
      case static_cast<std::uint64_t>(Layout::Kind::box): {
        const std::size_t dimensions = count(16, "box dimension");
        if (dimensions < 1 || dimensions > 3) corrupt("a box has " + std::to_string(dimensions) + " dimensions");
        const std::size_t start = u64();
        std::vector<std::size_t> extents(dimensions);
        std::vector<std::ptrdiff_t> strides(dimensions);
        for (std::size_t d = 0; d < dimensions; ++d) {
          extents[d] = u64();
          strides[d] = static_cast<std::ptrdiff_t>(i64());
        }
        return Layout::box(start, extents, strides);
      }
      case static_cast<std::uint64_t>(Layout::Kind::indices): {
        std::vector<std::size_t> indices(count(8, "index"));
        for (std::size_t& index : indices) index = u64();
        return Layout::indices(std::move(indices));
      }
      case static_cast<std::uint64_t>(Layout::Kind::ranges): {
        std::vector<Layout::Range> ranges(count(16, "range"));
        for (Layout::Range& range : ranges) range = {u64(), u64()};
        return Layout::ranges(std::move(ranges));
      }
      default: corrupt("unknown layout kind " + std::to_string(kind));
    }
  } catch (const Error& error) {
    if (error.code() == Errc::internal) throw;
    corrupt(std::string("a layout the library refuses: ") + error.what());
  }
}

}  // namespace ghostwire::detail
