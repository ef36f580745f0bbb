// SPDX-License-Identifier: BSD-3-Clause
// Segment: memory allocated collectively, node-shared and exposed to other nodes for one-sided
// access, with an array of notification slots (the GASPI segment). Invariant of the notified write:
// a target that sees the notification sees the data. docs/runtime.md, "Segments" and
// "Notifications and notified writes".
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>

#include "ghostwire/world.hpp"

namespace ghostwire {

using NotificationId = std::uint32_t;
using NotificationValue = std::uint32_t;

class Segment;

namespace detail {
struct SegmentState;
// The library's own way to a Segment's internals (defined in src/runtime/segment_state.hpp); not
// part of the public API.
inline SegmentState& segment_state(Segment& segment) noexcept;
inline const SegmentState& segment_state(const Segment& segment) noexcept;

// What the inline intra-node path of a notified write needs, copied out of the segment's state
// so the common case is a few compares, a memcpy and a release store (no call into the library).
struct SegmentFastPath {
  std::byte* const* peer_base = nullptr;  // every rank's part; null for ranks on other nodes
  const std::size_t* sizes = nullptr;     // data bytes of every rank's part
  std::size_t data_offset = 0;            // notification slots come first in each part
  std::uint32_t notification_count = 0;
  std::uint32_t ranks = 0;
  int my_rank = 0;
};
}  // namespace detail

class Segment {
 public:
  static constexpr std::size_t default_notification_count = 1024;

  // Collective over the world. `bytes` may differ between ranks; `notification_count` must not.
  // Every rank's part starts on a page boundary.
  Segment(World& world, std::size_t bytes, std::size_t notification_count = default_notification_count);
  // Collective: all ranks destroy their segments in the same order.
  ~Segment();
  Segment(const Segment&) = delete;
  Segment& operator=(const Segment&) = delete;

  World& world() const noexcept;
  int id() const noexcept;  // the same on every rank

  std::byte* data() noexcept;
  const std::byte* data() const noexcept;
  std::size_t size() const noexcept;  // bytes of my part
  std::size_t size_of(int rank) const;
  template <class T>
  std::span<T> as() noexcept {
    return {reinterpret_cast<T*>(data()), size() / sizeof(T)};
  }

  // Direct pointer to a node peer's part (my own included); nullptr for ranks on other nodes.
  std::byte* peer_data(int rank) const;
  std::size_t notification_count() const noexcept;

  // Plain one-sided access to any rank's part (no notification): a memcpy for node peers, an MPI
  // one-sided put/get otherwise. Both are complete on return.
  void put(int target, std::size_t offset, const void* source, std::size_t bytes);
  void get(int target, std::size_t offset, void* destination, std::size_t bytes) const;

  const detail::SegmentFastPath& fast_path() const noexcept { return fast_; }

 private:
  friend detail::SegmentState& detail::segment_state(Segment&) noexcept;
  friend const detail::SegmentState& detail::segment_state(const Segment&) noexcept;
  std::unique_ptr<detail::SegmentState> state_;
  detail::SegmentFastPath fast_;
};

namespace detail {
// Full checks, error reporting, waiting and the inter-node path, out of line.
void write_notify_general(const void* source, int target, Segment& destination, std::size_t destination_offset,
                          std::size_t bytes, NotificationId id, NotificationValue value);
void write_notify_segment_general(const Segment& source, std::size_t source_offset, int target, Segment& destination,
                                  std::size_t destination_offset, std::size_t bytes, NotificationId id,
                                  NotificationValue value);
NotificationValue notify_wait_general(Segment& segment, NotificationId id);
void notify_general(int target, Segment& destination, NotificationId id, NotificationValue value);

// The node-local case with valid arguments; false sends the caller to the general path.
inline bool write_notify_in_node(const void* source, int target, Segment& destination, std::size_t offset,
                                 std::size_t bytes, NotificationId id, NotificationValue value) {
  const SegmentFastPath& f = destination.fast_path();
  if (static_cast<std::uint32_t>(target) >= f.ranks || id >= f.notification_count || value == 0) return false;
  std::byte* peer = f.peer_base[target];
  std::size_t size = f.sizes[target];
  if (peer == nullptr || offset > size || bytes > size - offset || (source == nullptr && bytes != 0)) return false;
  if (bytes) std::memcpy(peer + f.data_offset + offset, source, bytes);
  std::atomic_ref<std::uint32_t>(reinterpret_cast<std::uint32_t*>(peer)[id]).store(value, std::memory_order_release);
  return true;
}
}  // namespace detail

// The notified write (gaspi_write_notify): copies `bytes` from my part of `source` at `source_offset`
// to `target`'s part of `destination` at `destination_offset`, then sets notification `id` of
// `destination` at `target` to `value` (non-zero). A target that sees the notification sees the
// data. Writes from one rank to one target are delivered in order. Returns when the source may be
// reused. Between node peers this is a memcpy and a release store, inlined here.
inline void write_notify(const Segment& source, std::size_t source_offset, int target, Segment& destination,
                         std::size_t destination_offset, std::size_t bytes, NotificationId id,
                         NotificationValue value) {
  const detail::SegmentFastPath& f = source.fast_path();
  std::size_t mine = f.sizes[f.my_rank];
  if (source_offset <= mine && bytes <= mine - source_offset) {
    const std::byte* from = f.peer_base[f.my_rank] + f.data_offset + source_offset;
    if (detail::write_notify_in_node(from, target, destination, destination_offset, bytes, id, value)) return;
  }
  detail::write_notify_segment_general(source, source_offset, target, destination, destination_offset, bytes, id,
                                       value);
}

// The same from any local memory.
inline void write_notify(const void* source, int target, Segment& destination, std::size_t destination_offset,
                         std::size_t bytes, NotificationId id, NotificationValue value) {
  if (!detail::write_notify_in_node(source, target, destination, destination_offset, bytes, id, value))
    detail::write_notify_general(source, target, destination, destination_offset, bytes, id, value);
}

// A notification without data: to a node peer, a release store, inlined here.
inline void notify(int target, Segment& destination, NotificationId id, NotificationValue value) {
  if (!detail::write_notify_in_node(nullptr, target, destination, 0, 0, id, value))
    detail::notify_general(target, destination, id, value);
}

// Returns the value of notification `id` of my part and resets it to 0, or 0 if it is not set.
NotificationValue notify_test(Segment& segment, NotificationId id);

// Waits until notification `id` is set, returns its value and resets it.
inline NotificationValue notify_wait(Segment& segment, NotificationId id) {
  const detail::SegmentFastPath& f = segment.fast_path();
  if (id < f.notification_count) {
    std::atomic_ref<std::uint32_t> slot(reinterpret_cast<std::uint32_t*>(f.peer_base[f.my_rank])[id]);
    if (slot.load(std::memory_order_acquire) != 0) return slot.exchange(0, std::memory_order_acq_rel);
  }
  return detail::notify_wait_general(segment, id);
}

struct Notification {
  NotificationId id;
  NotificationValue value;
};
// Waits until one of the notifications [first, first + count) is set; returns the lowest such id
// and its value, and resets it.
Notification notify_waitsome(Segment& segment, NotificationId first, std::size_t count);
// Resets notification `id` and returns the value it had.
NotificationValue notify_reset(Segment& segment, NotificationId id);

}  // namespace ghostwire
