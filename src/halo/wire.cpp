#include "wire.hpp"

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

Layout WireReader::layout() {
  auto kind = static_cast<Layout::Kind>(u64());
  switch (kind) {
    case Layout::Kind::box: {
      auto dimensions = static_cast<std::size_t>(u64());
      std::size_t start = u64();
      std::vector<std::size_t> extents(dimensions);
      std::vector<std::ptrdiff_t> strides(dimensions);
      for (std::size_t d = 0; d < dimensions; ++d) {
        extents[d] = u64();
        strides[d] = static_cast<std::ptrdiff_t>(i64());
      }
      return Layout::box(start, extents, strides);
    }
    case Layout::Kind::indices: {
      std::vector<std::size_t> indices(u64());
      for (std::size_t& index : indices) index = u64();
      return Layout::indices(std::move(indices));
    }
    case Layout::Kind::ranges: {
      std::vector<Layout::Range> ranges(u64());
      for (Layout::Range& range : ranges) {
        range.start = u64();
        range.count = u64();
      }
      return Layout::ranges(std::move(ranges));
    }
  }
  raise(Errc::internal, "commit descriptor holds an unknown layout kind");
}

}  // namespace ghostwire::detail
