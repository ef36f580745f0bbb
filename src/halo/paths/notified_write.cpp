// SPDX-License-Identifier: BSD-3-Clause
// The notified-write path: between nodes, a slot's message is packed and written one-sided into
// half k % 2 of a double buffer in the receiver's end's shared memory, with a notification carrying
// its sequence number; the receiver acknowledges before unpacking, since the next message lands in
// the other half. Taken with the one-sided transport (GHOSTWIRE_TRANSPORT=rma), and with the
// two-sided one when the plan's tags would exceed MPI_TAG_UB. Notification ids per slot s (of the
// receiving rank for data, of the sending rank for acknowledgements): data of message k at
// 3 s + k % 2, the acknowledgement at 3 s + 2, after the path's base. docs/plans.md, "Between nodes".
#include <vector>

#include "ghostwire/error.hpp"
#include "ghostwire/segment.hpp"
#include "halo/commit/slot_build.hpp"
#include "halo/plan_state.hpp"
#include "halo/sequence.hpp"
#include "runtime/segment_state.hpp"

namespace ghostwire::detail {
namespace {

const char* const description = "inter-node, notified write";

std::size_t half_bytes(std::size_t message_bytes) { return round_up(message_bytes, 64); }

class NotifiedWriteSend final : public SendPath {
 public:
  explicit NotifiedWriteSend(const SlotBuild& b);
  void post(PlanState& p, SendSlot& slot, Post how) override;
  bool acknowledged(PlanState& p, SendSlot& slot) override;
  bool ready_for_next(PlanState& p, SendSlot& slot) override;
  bool exchange_done(PlanState&, SendSlot&) override { return true; }  // packed: nothing of mine is read
  std::string describe_wait(const PlanState& p, const SendSlot& slot) const override;
  std::string cannot_follow(const PlanState&, const SendSlot&, const MemoryMove&) const override { return {}; }
  void follow(PlanState&, SendSlot&, const MemoryMove& move) override { pack.follow(move); }

 private:
  // The message leaves from here: a buffer of the slot's own, so threads driving different slots
  // never pack into one another's (a move keeps the vector's memory, and so the copy's target).
  std::vector<std::byte> buffer;
  CopyProgram pack;  // into `buffer`
  std::size_t remote_offset[2] = {0, 0};  // the receiver's halves in its part of the plan segment
  NotificationId remote_data_id[2] = {0, 0};
  NotificationId acknowledgement_id = 0;  // my notification the receiver sets
  std::uint32_t last_acknowledgement = 0;  // the last acknowledgement seen
};

class NotifiedWriteReceive final : public ReceivePath {
 public:
  explicit NotifiedWriteReceive(const SlotBuild& b);
  bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) override;
  std::string describe_wait(const PlanState& p, const ReceiveSlot& slot) const override;
  std::string cannot_follow(const PlanState&, const ReceiveSlot&, const MemoryMove&) const override { return {}; }
  void follow(PlanState&, ReceiveSlot&, const MemoryMove& move) override {
    for (CopyProgram& program : unpack) program.follow(move);
  }

 private:
  CopyProgram unpack[2];  // out of my half k % 2
  NotificationId data_id[2] = {0, 0};
  NotificationId remote_acknowledgement_id = 0;
};

NotifiedWriteSend::NotifiedWriteSend(const SlotBuild& b) {
  buffer.assign(b.bytes, std::byte{0});
  pack = b.pack_into(buffer.data());
  for (int parity = 0; parity < 2; ++parity) {
    remote_offset[parity] = b.peer_side.segment_offset + static_cast<std::size_t>(parity) * half_bytes(b.bytes);
    remote_data_id[parity] = static_cast<NotificationId>(b.notification(b.peer_slot, static_cast<std::size_t>(parity)));
  }
  acknowledgement_id = static_cast<NotificationId>(b.notification(b.slot, 2));
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
         p.slot_name(slot.channel, slot.rank) + " of plan " + std::to_string(p.id) + " (" + description +
         "; last acknowledgement seen: " + std::to_string(last_acknowledgement) + ")";
}

NotifiedWriteReceive::NotifiedWriteReceive(const SlotBuild& b) {
  for (int parity = 0; parity < 2; ++parity) {
    unpack[parity] = b.unpack_from(b.my_shared_memory() + static_cast<std::size_t>(parity) * half_bytes(b.bytes));
    data_id[parity] = static_cast<NotificationId>(b.notification(b.slot, static_cast<std::size_t>(parity)));
  }
  remote_acknowledgement_id = static_cast<NotificationId>(b.notification(b.peer_slot, 2));
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
         " of plan " + std::to_string(p.id) + " (" + description + "; received so far: " +
         std::to_string(slot.sequence) + ")";
}

class NotifiedWriteType final : public PathType {
 public:
  const char* name() const override { return "notified-write"; }
  const char* description() const override { return ::ghostwire::detail::description; }
  bool between_nodes() const override { return true; }
  bool served_by_world_progress() const override { return true; }
  bool receiver_prepares() const override { return true; }
  std::size_t notifications_per_slot() const override { return 3; }
  bool offers(const SlotSide&, Choice, const PathPlanState*) const override { return true; }  // any message
  SlotMemory memory(const SlotSide& side) const override { return {side.sending ? 0 : 2 * half_bytes(side.bytes), 0}; }
  std::unique_ptr<SendPath> build_send(const SlotBuild& b) const override {
    return std::make_unique<NotifiedWriteSend>(b);
  }
  std::unique_ptr<ReceivePath> build_receive(const SlotBuild& b) const override {
    return std::make_unique<NotifiedWriteReceive>(b);
  }
};

}  // namespace

const PathType& notified_write_path() {
  static const NotifiedWriteType type;
  return type;
}

}  // namespace ghostwire::detail
