// SPDX-License-Identifier: BSD-3-Clause
// The notified-write path (notified_write.hpp). Notification ids in the plan segment: data of
// message k on slot s is 2 s + k % 2, the acknowledgement of send slot s is 2 slots + s. The
// receiver acknowledges before unpacking, since the next message lands in the other half.
#include "halo/paths/notified_write.hpp"

#include "ghostwire/error.hpp"
#include "halo/commit/slot_build.hpp"
#include "halo/plan_state.hpp"

namespace ghostwire::detail {

NotifiedWriteSend NotifiedWriteSend::build(const SlotBuild& b) {
  NotifiedWriteSend path;
  path.buffer.assign(b.bytes, std::byte{0});
  path.pack = b.pack_into(path.buffer.data());
  const auto& buffers = b.peer_receive().notified_buffers;
  for (int parity = 0; parity < 2; ++parity) {
    path.remote_offset[parity] = buffers[static_cast<std::size_t>(parity)];
    path.remote_data_id[parity] = static_cast<NotificationId>(2 * b.peer_slot + static_cast<std::size_t>(parity));
  }
  path.acknowledgement_id = static_cast<NotificationId>(2 * b.plan.send_pieces.size() + b.slot);
  return path;
}

void NotifiedWriteSend::post(PlanState& p, SendSlot& slot, Post) {
  pack.run();
  const std::uint32_t next = next_sequence(slot.sequence);
  const int parity = parity_of(next);
  slot.sequence = next;
  write_notify(buffer.data(), slot.rank, *p.segment, remote_offset[parity], slot.bytes, remote_data_id[parity],
               next);
}

bool NotifiedWriteSend::acknowledged(PlanState& p, SendSlot& slot) {
  if (last_acknowledgement != slot.sequence)
    if (NotificationValue value = notify_test(*p.segment, acknowledgement_id)) last_acknowledgement = value;
  return last_acknowledgement == slot.sequence;
}

// Double-buffered: the half the next message goes to was freed by the message before last.
bool NotifiedWriteSend::ready_for_next(PlanState& p, SendSlot& slot) {
  return acknowledged(p, slot) || is_previous(last_acknowledgement, slot.sequence);
}

std::string NotifiedWriteSend::describe_wait(const PlanState& p, const SendSlot& slot) const {
  return "the acknowledgement of message " + std::to_string(slot.sequence) + " on " +
         p.slot_name(slot.channel, slot.rank) + " of plan " + std::to_string(p.id) + " (" + path_name(kind) +
         "; last acknowledgement seen: " + std::to_string(last_acknowledgement) + ")";
}

NotifiedWriteReceive NotifiedWriteReceive::build(const SlotBuild& b) {
  NotifiedWriteReceive path;
  for (int parity = 0; parity < 2; ++parity) {
    path.unpack[parity] = b.unpack_from(b.my_notified_buffer(parity));
    path.data_id[parity] = static_cast<NotificationId>(2 * b.slot + static_cast<std::size_t>(parity));
  }
  path.remote_acknowledgement_id = static_cast<NotificationId>(2 * b.peer_slots() + b.peer_slot);
  return path;
}

bool NotifiedWriteReceive::try_receive(PlanState& p, ReceiveSlot& slot, Receipt) {
  const std::uint32_t expected = next_sequence(slot.sequence);
  const int parity = parity_of(expected);
  const NotificationValue value = notify_test(*p.segment, data_id[parity]);  // serves the transport too
  if (value == 0) return false;
  if (value != expected)
    raise(Errc::internal, "plan " + std::to_string(p.id) + ": " + p.slot_name(slot.channel, slot.rank) +
                              " expected message " + std::to_string(expected) + " but received sequence number " +
                              std::to_string(value));
  notify(slot.rank, *p.segment, remote_acknowledgement_id, value);
  unpack[parity].run();
  slot.sequence = slot.consumed = expected;
  return true;
}

std::string NotifiedWriteReceive::describe_wait(const PlanState& p, const ReceiveSlot& slot) const {
  return "message " + std::to_string(next_sequence(slot.sequence)) + " on " + p.slot_name(slot.channel, slot.rank) +
         " of plan " + std::to_string(p.id) + " (" + path_name(kind) + "; received so far: " +
         std::to_string(slot.sequence) + ")";
}

}  // namespace ghostwire::detail
