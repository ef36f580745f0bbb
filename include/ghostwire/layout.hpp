// SPDX-License-Identifier: BSD-3-Clause
// Layout: which elements of a memory region a message reads or writes, in message order.
//
//  - box: an N-d strided box (1 to 3 dimensions). Extents and strides are listed from the
//    fastest-varying dimension outwards; element (i0, i1, i2) is at
//    start + i0*stride0 + i1*stride1 + i2*stride2 (in elements; strides may be negative), and
//    i0 varies fastest in the message. For a C array a[ny][nx], the box of columns [x, x+w) of
//    rows [y, y+h) is box(y*nx + x, {w, h}, {1, nx}).
//  - indices: an explicit list of element indices (unstructured meshes).
//  - ranges: a list of contiguous [start, start + count) ranges; contiguous() is one range.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace ghostwire {

class Layout {
 public:
  enum class Kind : std::uint8_t { box, indices, ranges };
  struct Range {
    std::size_t start;
    std::size_t count;
  };

  static Layout box(std::size_t start, std::span<const std::size_t> extents, std::span<const std::ptrdiff_t> strides);
  static Layout box(std::size_t start, std::initializer_list<std::size_t> extents,
                    std::initializer_list<std::ptrdiff_t> strides) {
    return box(start, std::span<const std::size_t>(extents.begin(), extents.size()),
               std::span<const std::ptrdiff_t>(strides.begin(), strides.size()));
  }
  static Layout indices(std::vector<std::size_t> element_indices);
  static Layout ranges(std::vector<Range> ranges);
  static Layout contiguous(std::size_t start, std::size_t count) { return ranges({{start, count}}); }

  Kind kind() const noexcept { return kind_; }
  std::size_t count() const noexcept { return count_; }  // elements in the message
  // Smallest and one past the largest element index touched (0, 0 when empty).
  std::size_t lowest() const noexcept { return lowest_; }
  std::size_t end() const noexcept { return end_; }
  std::string describe() const;

  // Calls visit(first_element, run_length) for each maximal run of consecutive elements, in
  // message order.
  template <class Visit>
  void for_each_run(Visit&& visit) const;

  // Box accessors (valid for Kind::box).
  std::size_t start() const noexcept { return start_; }
  int dimensions() const noexcept { return dimensions_; }
  std::size_t extent(int d) const noexcept { return extents_[d]; }
  std::ptrdiff_t stride(int d) const noexcept { return strides_[d]; }
  const std::vector<std::size_t>& index_list() const noexcept { return indices_; }
  const std::vector<Range>& range_list() const noexcept { return ranges_; }

 private:
  Kind kind_ = Kind::ranges;
  int dimensions_ = 0;
  std::size_t start_ = 0;
  std::size_t extents_[3] = {1, 1, 1};
  std::ptrdiff_t strides_[3] = {0, 0, 0};
  std::vector<std::size_t> indices_;
  std::vector<Range> ranges_;
  std::size_t count_ = 0, lowest_ = 0, end_ = 0;
};

template <class Visit>
void Layout::for_each_run(Visit&& visit) const {
  switch (kind_) {
    case Kind::box: {
      if (count_ == 0) return;
      bool contiguous_rows = strides_[0] == 1;
      for (std::size_t i2 = 0; i2 < extents_[2]; ++i2)
        for (std::size_t i1 = 0; i1 < extents_[1]; ++i1) {
          auto row = static_cast<std::ptrdiff_t>(start_) + static_cast<std::ptrdiff_t>(i1) * strides_[1] +
                     static_cast<std::ptrdiff_t>(i2) * strides_[2];
          if (contiguous_rows) {
            visit(static_cast<std::size_t>(row), extents_[0]);
          } else {
            for (std::size_t i0 = 0; i0 < extents_[0]; ++i0)
              visit(static_cast<std::size_t>(row + static_cast<std::ptrdiff_t>(i0) * strides_[0]), std::size_t{1});
          }
        }
      return;
    }
    case Kind::indices: {
      std::size_t i = 0;
      while (i < indices_.size()) {
        std::size_t first = indices_[i], length = 1;
        while (i + length < indices_.size() && indices_[i + length] == first + length) ++length;
        visit(first, length);
        i += length;
      }
      return;
    }
    case Kind::ranges:
      for (const Range& r : ranges_)
        if (r.count) visit(r.start, r.count);
      return;
  }
}

}  // namespace ghostwire
