// SPDX-License-Identifier: BSD-3-Clause
// The pushed path (pushed.hpp). Two counters per slot, each written by one side only:
//
//   free    in the sender's memory: the message the receiver's ghost cells are free for. The
//           receiver stores next_sequence(last received) with release at the entry of the call that
//           asks for the next message (test_recv, wait_recv, start, exchange): release orders every
//           earlier access of the receiver (the application's reads of the last message's ghosts,
//           its copy out of a staging half) before it.
//   posted  in the receiver's memory: the last message written, and in its high half how it and
//           the message before it went (ghost cells or staging). The sender loads `free` with
//           acquire; if it names the message to write, the sender copies into the ghost cells; if it
//           names the message before (so the receiver has taken the one before that, the last user
//           of this message's staging half), the sender packs into staging half k % 2. Then it
//           stores `posted` with release, and the receiver's acquire load of it sees every value.
//
// So a ghost cell is never written while the application may read it, never read before it is
// written, and a staging half is never overwritten before the receiver has copied it out. The
// receiver asks for k + 1 only after it has received k, so a sender runs at most one message ahead.
// A message that can go neither way waits (PushedSend::pending, PlanState::pushes_owed): every later
// call of the plan and every wait of the process writes it when it can (WorldState::owed_work).
// Why stage rather than wait for `free`: docs/plans.md, "One copy for sparse messages".
#include "halo/paths/pushed.hpp"

#include <sstream>

#include "ghostwire/error.hpp"
#include "halo/commit/slot_build.hpp"
#include "halo/plan_state.hpp"
#include "runtime/wait.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {
namespace {

// Bits of the high half of a pushed slot's posted word: message `sequence` (and the one before it)
// went through staging rather than into the ghost cells.
constexpr std::uint32_t this_one_staged = 1, previous_staged = 2;

void serve_pushes(void* plan) { progress_pushes(*static_cast<PlanState*>(plan)); }

void lock_owed(PlanState& p) {
  while (p.owed_lock.exchange(true, std::memory_order_acquire)) cpu_relax();
}
void unlock_owed(PlanState& p) { p.owed_lock.store(false, std::memory_order_release); }

}  // namespace

PushedSend PushedSend::build(const SlotBuild& b) {
  PushedSend path;
  const PeerSendCounters counters = b.peer_send_counters();
  path.posted = counters.posted;
  path.ghosts_free = counters.consumed;
  const MappedPieces ghosts = b.map_peer_pieces(b.peer_receive().ghosts);
  path.push = CopyProgram::build(b.mine, ghosts.pieces);
  for (int parity = 0; parity < 2; ++parity) path.pack_into[parity] = b.pack_into_staging(parity);
  return path;
}

bool PushedSend::try_write(SendSlot& slot) {
  const std::uint32_t free = load(ghosts_free);  // acquire: after the receiver's reads
  bool staged = false;
  if (free == slot.sequence) {
    push.run();
  } else if (is_previous(free, slot.sequence)) {
    pack_into[parity_of(slot.sequence)].run();
    staged = true;
  } else {
    return false;
  }
  const std::uint32_t how = (staged ? this_one_staged : 0) | (last_staged ? previous_staged : 0);
  store(posted, posted_word(slot.sequence, how));  // release: the values before the counter
  last_staged = staged;
  // Release: a thread that sees the slot free again (acknowledged, ready_for_next) sees the copy done.
  std::atomic_ref<bool>(pending).store(false, std::memory_order_release);
  return true;
}

bool PushedSend::is_pending() const {
  return std::atomic_ref<const bool>(pending).load(std::memory_order_acquire);
}

void PushedSend::post(PlanState& p, SendSlot& slot, Post) {
  slot.sequence = next_sequence(slot.sequence);
  pending = true;  // nobody else looks at the slot until it is owed
  if (try_write(slot)) return;
  lock_owed(p);
  p.pushes_owed.push_back(static_cast<std::int32_t>(&slot - p.sends.data()));
  p.owed_count.store(p.pushes_owed.size(), std::memory_order_release);
  unlock_owed(p);
}

std::string PushedSend::describe_wait(const PlanState& p, const SendSlot& slot) const {
  std::ostringstream text;
  text << "rank " << slot.rank << " to ask for message " << previous_sequence(slot.sequence) << " (then message "
       << slot.sequence << " can be staged) or " << slot.sequence << " (then it can be written into its ghost cells) on "
       << p.slot_name(slot.channel, slot.rank) << " of plan " << p.id << " (" << path_name(kind)
       << "; the receiver last asked for message " << load(ghosts_free)
       << ", counter posted to the receiver: " << posted_sequence(load(posted))
       << "; a rank asks for the next message in test_recv, wait_recv, start and exchange)";
  return text.str();
}

std::string PushedSend::not_acknowledged_hint(const SendSlot& slot) const {
  return "has not been written yet: rank " + std::to_string(slot.rank) +
         " has not asked for the message before it (a rank asks for the next message in test_recv, wait_recv, start "
         "and exchange); call wait_send before sending again";
}

PushedReceive PushedReceive::build(const SlotBuild& b) {
  PushedReceive path;
  const PeerReceiveCounters counters = b.peer_receive_counters();
  path.posted = counters.posted;
  path.ghosts_free = counters.consumed;
  for (int parity = 0; parity < 2; ++parity) path.unpack[parity] = b.unpack_from(b.peer_staging(parity));
  return path;
}

void PushedReceive::hand_over(PlanState&, ReceiveSlot& slot) {
  const std::uint32_t next = next_sequence(slot.sequence);
  if (free_signalled == next) return;  // said already: no store into the sender's line
  store(ghosts_free, next);
  free_signalled = next;
}

bool PushedReceive::try_receive(PlanState& p, ReceiveSlot& slot, Receipt) {
  hand_over(p, slot);
  const std::uint64_t word = load(posted);  // acquire: the values are in
  const std::uint32_t sequence = posted_sequence(word), how = posted_extra(word);
  if (sequence == slot.sequence) return false;
  const std::uint32_t expected = next_sequence(slot.sequence);
  // A sender that stages may be one message further (into the other staging half).
  bool staged = false;
  if (sequence == expected)
    staged = (how & this_one_staged) != 0;
  else if (sequence == next_sequence(expected))
    staged = (how & previous_staged) != 0;
  else
    raise(Errc::internal, "plan " + std::to_string(p.id) + ": " + p.slot_name(slot.channel, slot.rank) +
                              " expected pushed message " + std::to_string(expected) + " but the sender posted " +
                              std::to_string(sequence));
  // Written into the ghost cells: nothing to copy, nothing to acknowledge (the sender copied its own
  // data; the next "free" is the handshake). Staged: copy it out; asking for the next message says
  // the staging half is free again.
  if (staged) unpack[parity_of(expected)].run();
  slot.sequence = slot.consumed = expected;
  return true;
}

std::string PushedReceive::describe_wait(const PlanState& p, const ReceiveSlot& slot) const {
  std::ostringstream text;
  text << "message " << next_sequence(slot.sequence) << " on " << p.slot_name(slot.channel, slot.rank) << " of plan "
       << p.id << " (" << path_name(kind) << "; received so far: " << slot.sequence
       << ", sender's posted counter: " << posted_sequence(load(posted)) << ", this rank asked for message "
       << load(ghosts_free)
       << "; a sender writes a message when it sends it, or in its next call of ghostwire after it was asked for)";
  return text.str();
}

void progress_pushes(PlanState& p) {
  if (p.owed_count.load(std::memory_order_acquire) == 0) return;
  if (p.owed_lock.exchange(true, std::memory_order_acquire)) return;  // another thread serves them
  std::size_t kept = 0;
  for (std::int32_t index : p.pushes_owed) {
    SendSlot& slot = p.sends[static_cast<std::size_t>(index)];
    if (!std::get_if<PushedSend>(&slot.path)->try_write(slot)) p.pushes_owed[kept++] = index;
  }
  p.pushes_owed.resize(kept);
  p.owed_count.store(kept, std::memory_order_release);
  unlock_owed(p);
}

void owe_pushes_to_world(PlanState& p) {
  for (const SendSlot& slot : p.sends)
    if (slot.kind() == SlotPath::pushed) {
      p.w->owed_work.push_back({&serve_pushes, &p});
      return;
    }
}

void forget_pushes(PlanState& p) {
  if (p.w == nullptr) return;
  std::erase_if(p.w->owed_work, [&](const WorldState::OwedWork& work) { return work.context == &p; });
}

}  // namespace ghostwire::detail
