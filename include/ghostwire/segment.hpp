// Segment: memory allocated collectively, node-shared and exposed to other nodes for one-sided
// access, with an array of notification slots (the GASPI segment).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "ghostwire/world.hpp"

namespace ghostwire {

using NotificationId = std::uint32_t;
using NotificationValue = std::uint32_t;

namespace detail {
struct SegmentState;
}

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

  detail::SegmentState& state() noexcept { return *state_; }

 private:
  std::unique_ptr<detail::SegmentState> state_;
};

// The notified write (gaspi_write_notify): copies `bytes` from my part of `source` at `source_offset`
// to `target`'s part of `destination` at `destination_offset`, then sets notification `id` of
// `destination` at `target` to `value` (non-zero). A target that sees the notification sees the
// data. Writes from one rank to one target are delivered in order. Returns when the source may be
// reused.
void write_notify(const Segment& source, std::size_t source_offset, int target, Segment& destination,
                  std::size_t destination_offset, std::size_t bytes, NotificationId id,
                  NotificationValue value);
// The same from any local memory.
void write_notify(const void* source, int target, Segment& destination, std::size_t destination_offset,
                  std::size_t bytes, NotificationId id, NotificationValue value);
// A notification without data.
void notify(int target, Segment& destination, NotificationId id, NotificationValue value);

// Returns the value of notification `id` of my part and resets it to 0, or 0 if it is not set.
NotificationValue notify_test(Segment& segment, NotificationId id);
// Waits until notification `id` is set, returns its value and resets it.
NotificationValue notify_wait(Segment& segment, NotificationId id);

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
