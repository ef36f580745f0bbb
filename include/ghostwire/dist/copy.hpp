// SPDX-License-Identifier: BSD-3-Clause
// copy / copy_async: a global range of a Grid or Array to a local buffer and back, one-sided (the
// owners take no part). The buffer is dense and row-major over the range. Node peers are read or
// written at once through shared memory; other nodes by one one-sided operation per owner.
//
//   std::vector<double> rows(2 * n);
//   copy(grid, Box<2>{{10, 0}, {2, n}}, rows.data());        // rows 10 and 11
//   auto future = copy_async(array, 0, 100, buffer);         // ... future.wait() / test() / get()
//   copy(buffer, buffer + 100, array, 500);                  // into elements [500, 600)
#pragma once

#include "ghostwire/dist/array.hpp"
#include "ghostwire/dist/future.hpp"
#include "ghostwire/dist/grid.hpp"
#include "ghostwire/segment_async.hpp"

namespace ghostwire {

namespace detail {
// The distributed container as the copy engine sees it; halo null for arrays.
struct CopySource {
  const PatternCore* pattern;
  Segment* segment;
  std::size_t element_size;
  const HaloSpec* halo;
};
const HaloSpec* halo_of(const GridBase& grid) noexcept;
enum class CopyDirection { to_buffer, from_buffer };
// Starts the transfers between the global box and the buffer; checks the box.
void start_copy(const CopySource& source, const Index* low, const Index* extent, void* buffer, CopyDirection direction,
                AsyncTransfer& transfer, const char* call);
void check_buffer_range(const void* first, const void* last, const char* call);

template <class T, int N>
CopySource source_of(const Grid<T, N>& grid) {
  return {&grid.pattern().core(), &grid.segment(), sizeof(T), halo_of(grid)};
}
template <class T>
CopySource source_of(const Array<T>& array) {
  return {&array.pattern().core(), &array.segment(), sizeof(T), nullptr};
}
}  // namespace detail

// Grid box -> buffer; returns the end of what was written.
template <class T, int N>
Future<T*> copy_async(const Grid<T, N>& grid, const Box<N>& global, T* out) {
  AsyncTransfer transfer(grid.world());
  detail::start_copy(detail::source_of(grid), global.low.data(), global.extent.data(), out,
                     detail::CopyDirection::to_buffer, transfer, "copy_async");
  return Future<T*>(std::move(transfer), out + global.size());
}
template <class T, int N>
T* copy(const Grid<T, N>& grid, const Box<N>& global, T* out) {
  return copy_async(grid, global, out).get();
}
// Buffer -> grid box; returns the end of what was read.
template <class T, int N>
Future<const T*> copy_async(const T* in, Grid<T, N>& grid, const Box<N>& global) {
  AsyncTransfer transfer(grid.world());
  detail::start_copy(detail::source_of(grid), global.low.data(), global.extent.data(), const_cast<T*>(in),
                     detail::CopyDirection::from_buffer, transfer, "copy_async");
  return Future<const T*>(std::move(transfer), in + global.size());
}
template <class T, int N>
const T* copy(const T* in, Grid<T, N>& grid, const Box<N>& global) {
  return copy_async(in, grid, global).get();
}

// Array elements [first, last) -> buffer.
template <class T>
Future<T*> copy_async(const Array<T>& array, Index first, Index last, T* out) {
  AsyncTransfer transfer(array.world());
  Index low[1] = {first}, extent[1] = {last - first};
  detail::start_copy(detail::source_of(array), low, extent, out, detail::CopyDirection::to_buffer, transfer,
                     "copy_async");
  return Future<T*>(std::move(transfer), out + (last - first));
}
template <class T>
T* copy(const Array<T>& array, Index first, Index last, T* out) {
  return copy_async(array, first, last, out).get();
}
// Buffer [first, last) -> array elements from `at`.
template <class T>
Future<const T*> copy_async(const T* first, const T* last, Array<T>& array, Index at) {
  detail::check_buffer_range(first, last, "copy_async");
  AsyncTransfer transfer(array.world());
  Index low[1] = {at}, extent[1] = {last - first};
  detail::start_copy(detail::source_of(array), low, extent, const_cast<T*>(first), detail::CopyDirection::from_buffer,
                     transfer, "copy_async");
  return Future<const T*>(std::move(transfer), last);
}
template <class T>
const T* copy(const T* first, const T* last, Array<T>& array, Index at) {
  return copy_async(first, last, array, at).get();
}

}  // namespace ghostwire
