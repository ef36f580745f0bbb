// SPDX-License-Identifier: BSD-3-Clause
// Notified writes and notification waits, out of line (the inline fast path is in segment.hpp).
// Invariants: a notification is stored with release after its data, so whoever reads it with
// acquire sees the data; 0 means "not set" and is never written as a value; every argument is
// checked before anything is written. docs/runtime.md, "Notifications and notified writes".
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>

#include "ghostwire/error.hpp"
#include "ghostwire/segment.hpp"
#include "segment_state.hpp"
#include "transport.hpp"
#include "wait.hpp"

namespace ghostwire {
namespace detail {

namespace {

void check_notification(const SegmentState& s, NotificationId id, const char* call) {
  if (id >= s.notification_count)
    raise(Errc::out_of_range, std::string(call) + ": notification id " + std::to_string(id) + " is not in [0, " +
                                  std::to_string(s.notification_count) + ") of segment " + std::to_string(s.id));
}

std::uint32_t take(std::uint32_t* slot) noexcept {
  std::atomic_ref<std::uint32_t> value(*slot);
  if (value.load(std::memory_order_acquire) == 0) return 0;
  return value.exchange(0, std::memory_order_acq_rel);
}

void deliver(const void* source, int target, SegmentState& d, std::size_t offset, std::size_t bytes,
             NotificationId id, NotificationValue value, const char* call) {
  check_range(d, target, offset, bytes, call);
  check_notification(d, id, call);
  if (value == 0)
    raise(Errc::invalid_argument, std::string(call) + ": notification value 0 is reserved for 'not set'");
  if (std::byte* peer = d.peer_base[static_cast<std::size_t>(target)]) {
    if (bytes) std::memcpy(peer + d.data_offset + offset, source, bytes);
    store_notification(reinterpret_cast<std::uint32_t*>(peer) + id, value);
    return;
  }
  const std::lock_guard<std::mutex> own(d.w->transport_mutex);
  d.w->transport->write_notify(source, target, d, offset, bytes, id, value);
}

std::string describe_wait(const SegmentState& s, NotificationId first, std::size_t count) {
  std::string what = count == 1 ? "notification " + std::to_string(first)
                                : "any of notifications [" + std::to_string(first) + ", " +
                                      std::to_string(first + count) + ")";
  return what + " of segment " + std::to_string(s.id) + " (all still 0: no writer has notified them)";
}

}  // namespace
}  // namespace detail

namespace detail {

void write_notify_segment_general(const Segment& source, std::size_t source_offset, int target, Segment& destination,
                                  std::size_t destination_offset, std::size_t bytes, NotificationId id,
                                  NotificationValue value) {
  const SegmentState& s = segment_state(source);
  check_range(s, s.w->rank, source_offset, bytes, "write_notify (source)");
  deliver(s.data() + source_offset, target, segment_state(destination), destination_offset, bytes, id, value,
          "write_notify");
}

void write_notify_general(const void* source, int target, Segment& destination, std::size_t destination_offset,
                          std::size_t bytes, NotificationId id, NotificationValue value) {
  if (source == nullptr && bytes > 0)
    raise(Errc::invalid_argument, "write_notify: source is null but bytes is " + std::to_string(bytes));
  deliver(source, target, segment_state(destination), destination_offset, bytes, id, value, "write_notify");
}

}  // namespace detail

void detail::notify_general(int target, Segment& destination, NotificationId id, NotificationValue value) {
  detail::deliver(nullptr, target, detail::segment_state(destination), 0, 0, id, value, "notify");
}

NotificationValue notify_test(Segment& segment, NotificationId id) {
  detail::SegmentState& s = detail::segment_state(segment);
  detail::check_notification(s, id, "notify_test");
  if (s.w->needs_progress) s.w->progress();
  return detail::take(s.notifications() + id);
}

namespace {
// Without a transport to serve, every notification is a node peer's store: wait as on a node peer
// (yield at once where ranks outnumber cores; choose_wait_policy in world.cpp).
std::uint64_t notification_spin_polls(const detail::WorldState& w) {
  return w.needs_progress ? w.spin_polls : w.peer_spin_polls;
}
}  // namespace

NotificationValue detail::notify_wait_general(Segment& segment, NotificationId id) {
  detail::SegmentState& s = detail::segment_state(segment);
  detail::check_notification(s, id, "notify_wait");
  std::uint32_t* slot = s.notifications() + id;
  NotificationValue value = 0;
  detail::wait_until(
      *s.w, [&] { return (value = detail::take(slot)) != 0; }, [&] { return detail::describe_wait(s, id, 1); },
      notification_spin_polls(*s.w));
  return value;
}

namespace {

// The first of slots[0, count) that is set, or count.
std::size_t lowest_set(std::uint32_t* slots, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i)
    if (std::atomic_ref<std::uint32_t>(slots[i]).load(std::memory_order_relaxed) != 0) return i;
  return count;
}

}  // namespace

Notification notify_waitsome(Segment& segment, NotificationId first, std::size_t count) {
  detail::SegmentState& s = detail::segment_state(segment);
  if (count == 0) raise(Errc::invalid_argument, "notify_waitsome: count is 0, so nothing could ever arrive");
  detail::check_notification(s, first, "notify_waitsome");
  if (first + count > s.notification_count)
    raise(Errc::out_of_range, "notify_waitsome: range [" + std::to_string(first) + ", " +
                                  std::to_string(first + count) + ") exceeds the segment's " +
                                  std::to_string(s.notification_count) + " notifications");
  std::uint32_t* slots = s.notifications() + first;
  Notification found{0, 0};
  detail::wait_until(
      *s.w,
      [&] {
        std::size_t i = lowest_set(slots, count);
        if (i == count) return false;
        // A lower one may have been set while the scan went past it (a sender that notifies k and
        // then k + 1 is seen at k + 1 only by a scan that read k before its store): look again
        // below until none is, so the id returned is the lowest set at the last look.
        for (std::size_t lower = lowest_set(slots, i); lower < i; lower = lowest_set(slots, i)) i = lower;
        found = {static_cast<NotificationId>(first + i), detail::take(slots + i)};
        return true;
      },
      [&] { return detail::describe_wait(s, first, count); }, notification_spin_polls(*s.w));
  return found;
}

NotificationValue notify_reset(Segment& segment, NotificationId id) {
  detail::SegmentState& s = detail::segment_state(segment);
  detail::check_notification(s, id, "notify_reset");
  return std::atomic_ref<std::uint32_t>(s.notifications()[id]).exchange(0, std::memory_order_acq_rel);
}

}  // namespace ghostwire
