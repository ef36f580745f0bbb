// SPDX-License-Identifier: BSD-3-Clause
#include "ghostwire/layout.hpp"

#include <algorithm>
#include <cstdint>
#include <sstream>

#include "ghostwire/error.hpp"

namespace ghostwire {

Layout Layout::box(std::size_t start, std::span<const std::size_t> extents, std::span<const std::ptrdiff_t> strides) {
  if (extents.empty() || extents.size() > 3)
    raise(Errc::invalid_argument, "Layout::box: " + std::to_string(extents.size()) +
                                      " dimensions given; a box has 1 to 3");
  if (extents.size() != strides.size())
    raise(Errc::invalid_argument, "Layout::box: " + std::to_string(extents.size()) + " extents but " +
                                      std::to_string(strides.size()) + " strides; give one stride per dimension");
  Layout layout;
  layout.kind_ = Kind::box;
  layout.dimensions_ = static_cast<int>(extents.size());
  layout.start_ = start;
  layout.count_ = 1;
  // Every product and sum is checked: extents and strides that reach past the index range are an
  // error, never a wrapped-around box.
  const auto overflow = [&](std::size_t d) {
    raise(Errc::out_of_range, "Layout::box: extent " + std::to_string(extents[d]) + " with stride " +
                                  std::to_string(strides[d]) + " (dimension " + std::to_string(d) + ", start " +
                                  std::to_string(start) + ") reaches past the largest element index");
  };
  if (start > static_cast<std::size_t>(PTRDIFF_MAX)) overflow(0);
  std::ptrdiff_t low = static_cast<std::ptrdiff_t>(start), high = low;
  for (std::size_t d = 0; d < extents.size(); ++d) {
    layout.extents_[d] = extents[d];
    layout.strides_[d] = strides[d];
    if (__builtin_mul_overflow(layout.count_, extents[d], &layout.count_)) overflow(d);
    if (extents[d] == 0) continue;
    std::ptrdiff_t reach = 0;
    if (extents[d] - 1 > static_cast<std::size_t>(PTRDIFF_MAX) ||
        __builtin_mul_overflow(static_cast<std::ptrdiff_t>(extents[d] - 1), strides[d], &reach) ||
        __builtin_add_overflow(reach < 0 ? low : high, reach, reach < 0 ? &low : &high))
      overflow(d);
  }
  if (layout.count_ > 0) {
    if (low < 0)
      raise(Errc::out_of_range, "Layout::box: with start " + std::to_string(start) +
                                    " the negative strides reach element " + std::to_string(low) + ", before the region");
    layout.lowest_ = static_cast<std::size_t>(low);
    layout.end_ = static_cast<std::size_t>(high) + 1;
  }
  return layout;
}

Layout Layout::indices(std::vector<std::size_t> element_indices) {
  Layout layout;
  layout.kind_ = Kind::indices;
  layout.count_ = element_indices.size();
  if (!element_indices.empty()) {
    auto [low, high] = std::minmax_element(element_indices.begin(), element_indices.end());
    if (*high == static_cast<std::size_t>(-1))
      raise(Errc::out_of_range, "Layout::indices: index " + std::to_string(*high) + " is past the largest element index");
    layout.lowest_ = *low;
    layout.end_ = *high + 1;
  }
  layout.indices_ = std::move(element_indices);
  return layout;
}

Layout Layout::ranges(std::vector<Range> ranges) {
  Layout layout;
  layout.kind_ = Kind::ranges;
  bool first = true;
  for (const Range& r : ranges) {
    std::size_t end = 0;
    if (__builtin_add_overflow(layout.count_, r.count, &layout.count_) || __builtin_add_overflow(r.start, r.count, &end))
      raise(Errc::out_of_range, "Layout::ranges: range [" + std::to_string(r.start) + ", +" + std::to_string(r.count) +
                                    ") reaches past the largest element index");
    if (r.count == 0) continue;
    layout.lowest_ = first ? r.start : std::min(layout.lowest_, r.start);
    layout.end_ = first ? r.start + r.count : std::max(layout.end_, r.start + r.count);
    first = false;
  }
  layout.ranges_ = std::move(ranges);
  return layout;
}

std::string Layout::describe() const {
  std::ostringstream text;
  switch (kind_) {
    case Kind::box:
      text << "box start " << start_ << " extents {";
      for (int d = 0; d < dimensions_; ++d) text << (d ? ", " : "") << extents_[d];
      text << "} strides {";
      for (int d = 0; d < dimensions_; ++d) text << (d ? ", " : "") << strides_[d];
      text << "}";
      break;
    case Kind::indices:
      text << indices_.size() << " indices";
      break;
    case Kind::ranges:
      text << ranges_.size() << " range(s)";
      break;
  }
  text << " (" << count_ << " elements)";
  return text.str();
}

}  // namespace ghostwire
