// SPDX-License-Identifier: BSD-3-Clause
// Array<T>: a 1-D array distributed by any 1-D pattern (BLOCKED, CYCLIC, BLOCKCYCLIC(b), TILE(b)),
// each rank's elements contiguous in a Segment in global order.
//
//   Array<double> a(world, 1000);                                   // BLOCKED
//   Array<double> c(world, Pattern<1>({1000}, {CYCLIC}, TeamSpec<1>({world.size()})));
//   a[17] = 2.5;  double x = a[17];   // GlobalRef: any element, checked
//   for (double& v : a.local()) ...   // this rank's elements
//
// Constructing and destroying an array is collective.
#pragma once

#include <memory>
#include <span>
#include <type_traits>
#include <utility>

#include "ghostwire/dist/global_ref.hpp"
#include "ghostwire/dist/pattern.hpp"
#include "ghostwire/segment.hpp"
#include "ghostwire/world.hpp"

namespace ghostwire {

namespace detail {
void check_array_pattern(const PatternCore& pattern, const World& world);
GlobalAddress array_address(const PatternCore& pattern, Segment& segment, std::size_t element_size, Index index,
                            const char* call);
}  // namespace detail

template <class T>
class Array {
  static_assert(std::is_trivially_copyable_v<T>, "Array: elements must be trivially copyable");

 public:
  using value_type = T;

  Array(World& world, Index size) : Array(world, make_pattern<1>(Point<1>{size}, world.size())) {}
  Array(World& world, const Pattern<1>& pattern) : world_(&world), pattern_(pattern) {
    detail::check_array_pattern(pattern.core(), world);
    local_size_ = pattern.local_size(world.rank());
    segment_ = std::make_unique<Segment>(world, static_cast<std::size_t>(local_size_) * sizeof(T));
    local_ = reinterpret_cast<T*>(segment_->data());
  }

  Index size() const noexcept { return pattern_.size(); }
  const Pattern<1>& pattern() const noexcept { return pattern_; }
  World& world() const noexcept { return *world_; }
  Segment& segment() const noexcept { return *segment_; }

  // Any element; throws Error(out_of_range) outside [0, size()).
  GlobalRef<T> operator[](Index index) const {
    return GlobalRef<T>(detail::array_address(pattern_.core(), *segment_, sizeof(T), index, "Array::operator[]"));
  }
  GlobalRef<T> at(Index index) const {
    return GlobalRef<T>(detail::array_address(pattern_.core(), *segment_, sizeof(T), index, "Array::at"));
  }

  // This rank's elements, in global order.
  std::span<T> local() noexcept { return {local_, static_cast<std::size_t>(local_size_)}; }
  std::span<const T> local() const noexcept { return {local_, static_cast<std::size_t>(local_size_)}; }
  T* lbegin() noexcept { return local_; }
  T* lend() noexcept { return local_ + local_size_; }
  Index local_size() const noexcept { return local_size_; }
  Index global_index(Index local_index) const noexcept {
    return pattern_.global_coords(world_->rank(), Point<1>{local_index})[0];
  }
  // The local indices [first, last) of this rank's elements among the global [begin, end).
  std::pair<Index, Index> local_range(Index begin, Index end) const noexcept {
    Box<1> b = pattern_.local_range(world_->rank(), Box<1>{{begin}, {end - begin}});
    return {b.low[0], b.low[0] + b.extent[0]};
  }

  void barrier() { world_->barrier(); }

 private:
  World* world_;
  Pattern<1> pattern_;
  std::unique_ptr<Segment> segment_;
  T* local_ = nullptr;
  Index local_size_ = 0;
};

}  // namespace ghostwire
