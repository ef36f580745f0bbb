// SPDX-License-Identifier: BSD-3-Clause
#include "copy_loop.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

namespace gwbench::halo {
namespace {

using ghostwire::Layout;

// The first element of a layout that is one contiguous run of elements, if it is one.
bool single_run(const Layout& layout, std::size_t& start) {
  int runs = 0;
  layout.for_each_run([&](std::size_t first, std::size_t) {
    if (runs++ == 0) start = first;
  });
  return runs == 1;
}

std::vector<std::size_t> elements(const Layout& layout) {
  std::vector<std::size_t> list;
  list.reserve(layout.count());
  layout.for_each_run([&](std::size_t first, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) list.push_back(first + k);
  });
  return list;
}

}  // namespace

CopyLoop::CopyLoop(const Layout& from, const Layout& to) : count_(from.count()) {
  if (to.count() != count_)
    throw std::logic_error("CopyLoop: " + from.describe() + " and " + to.describe() + " differ in element count");
  if (count_ == 0) return;
  const bool from_box = from.kind() == Layout::Kind::box, to_box = to.kind() == Layout::Kind::box;
  std::size_t from_start = 0, to_start = 0;
  const bool from_run = single_run(from, from_start), to_run = single_run(to, to_start);
  bool same_shape = true;
  if (from_box && to_box)
    for (int d = 0; d < 3; ++d) same_shape = same_shape && from.extent(d) == to.extent(d);

  if ((from_box || from_run) && (to_box || to_run) && same_shape) {
    kind_ = Kind::boxes;
    const Layout* shape = from_box ? &from : (to_box ? &to : nullptr);
    for (int d = 0; d < 3; ++d) extent_[d] = shape ? shape->extent(d) : (d == 0 ? count_ : 1);
    // A contiguous side walks the same shape densely.
    auto dense = [&](Box& box, std::size_t start) {
      box.start = start;
      box.stride[0] = 1;
      box.stride[1] = static_cast<std::ptrdiff_t>(extent_[0]);
      box.stride[2] = static_cast<std::ptrdiff_t>(extent_[0] * extent_[1]);
    };
    auto of = [&](Box& box, const Layout& layout) {
      box.start = layout.start();
      for (int d = 0; d < 3; ++d) box.stride[d] = layout.stride(d);
    };
    if (from_box) of(from_, from); else dense(from_, from_start);
    if (to_box) of(to_, to); else dense(to_, to_start);
  } else if (to_run) {
    kind_ = Kind::gather;
    from_index_ = elements(from);
    to_.start = to_start;
  } else if (from_run) {
    kind_ = Kind::scatter;
    to_index_ = elements(to);
    from_.start = from_start;
  } else {
    kind_ = Kind::pairs;
    from_index_ = elements(from);
    to_index_ = elements(to);
  }
}

void CopyLoop::run(const double* source, double* destination) const {
  switch (kind_) {
    case Kind::none:
      return;
    case Kind::boxes:
      run_boxes(source, destination);
      return;
    case Kind::gather: {
      double* d = destination + to_.start;
      const std::size_t* index = from_index_.data();
      for (std::size_t k = 0; k < count_; ++k) d[k] = source[index[k]];
      return;
    }
    case Kind::scatter: {
      const double* s = source + from_.start;
      const std::size_t* index = to_index_.data();
      for (std::size_t k = 0; k < count_; ++k) destination[index[k]] = s[k];
      return;
    }
    case Kind::pairs:
      for (std::size_t k = 0; k < count_; ++k) destination[to_index_[k]] = source[from_index_[k]];
      return;
  }
}

void CopyLoop::run_boxes(const double* source, double* destination) const {
  const auto e0 = static_cast<std::ptrdiff_t>(extent_[0]), e1 = static_cast<std::ptrdiff_t>(extent_[1]),
             e2 = static_cast<std::ptrdiff_t>(extent_[2]);
  const std::ptrdiff_t f0 = from_.stride[0], f1 = from_.stride[1], f2 = from_.stride[2];
  const std::ptrdiff_t t0 = to_.stride[0], t1 = to_.stride[1], t2 = to_.stride[2];
  const double* from = source + from_.start;
  double* to = destination + to_.start;
  if (e0 == 1) {  // columns: one element per row, so the row loop is the inner loop
    for (std::ptrdiff_t i2 = 0; i2 < e2; ++i2) {
      const double* s = from + i2 * f2;
      double* d = to + i2 * t2;
      for (std::ptrdiff_t i1 = 0; i1 < e1; ++i1) d[i1 * t1] = s[i1 * f1];
    }
    return;
  }
  const bool rows = f0 == 1 && t0 == 1;
  for (std::ptrdiff_t i2 = 0; i2 < e2; ++i2)
    for (std::ptrdiff_t i1 = 0; i1 < e1; ++i1) {
      const double* s = from + i1 * f1 + i2 * f2;
      double* d = to + i1 * t1 + i2 * t2;
      if (rows && e0 >= 8) {
        std::memcpy(d, s, static_cast<std::size_t>(e0) * sizeof(double));
      } else if (rows) {
        for (std::ptrdiff_t i0 = 0; i0 < e0; ++i0) d[i0] = s[i0];
      } else {
        for (std::ptrdiff_t i0 = 0; i0 < e0; ++i0) d[i0 * t0] = s[i0 * f0];
      }
    }
}

}  // namespace gwbench::halo
