// The pushed path: between node peers, the sender of a sparse message stores its values straight
// into the receiver's ghost cells (one copy, where staging makes two) when the receiver has said
// those cells are free; when it has not yet, the sender stages the message as the staged path
// does, rather than wait for it.
//
// Two counters per slot, each written by one side only:
//
//   free    in the sender's memory (its acknowledgement word): the message the receiver's ghost
//           cells are free for. The receiver stores next_sequence(last received) with release at
//           the entry of test_recv / wait_recv / start / exchange: the call that asks for the next
//           message hands the ghost cells over. Release orders every earlier load and store of
//           the receiver (the application's reads of the last message's ghosts, its copy out of
//           a staging half) before it.
//   posted  in the receiver's memory: the last message written, and in its high half how it and
//           the message before it went (ghost cells or staging). The sender loads `free` with
//           acquire; if it names the message to write, the sender copies into the ghost cells
//           (those stores happen after everything the receiver did before signalling); if it
//           names the message before (so the receiver has taken the one before that, the last
//           user of this message's staging half), the sender packs into staging half
//           sequence % 2. Then it stores `posted` with release; the receiver's acquire load of
//           `posted` sees every value, and copies out of the staging half if the message went there.
//
// So a ghost cell is never written while the application may still read it (it has asked for the
// next message), never read before it is written, and a staging half is never overwritten before
// the receiver has copied it out. The receiver asks for message k + 1 only after it has received
// k, so a sender runs at most one message ahead of its receiver, as on the staged path.
//
// Why stage rather than wait when the receiver is not ready: the receiver's "free" comes only when
// it enters its own exchange, and waiting for it measured slower whenever the two ranks do not
// arrive together (gw-bench halo, unstructured case, docs/plans.md): with ranks sharing cores a
// wait costs a switch to the receiver and back, and between cores that are far apart (two
// CCDs) the round trip costs more than the second copy.
//
// A message that can go neither way (the receiver has not taken the message before last) waits
// (SendSlot::push_pending, PlanState::pending_pushes); send() does not wait for it. Every later
// call of the plan (send, test_send, wait_send, test_recv, wait_recv, start, finish) tries the
// waiting writes first, and so does every wait of the process, in any plan, barrier or collective
// of ghostwire (WorldState::owed_work). Only a rank that stops calling ghostwire (computing, or
// blocked in MPI itself) leaves such a write waiting until it comes back.
#include <sstream>

#include "ghostwire/error.hpp"
#include "plan_state.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {
namespace {

// Bits of the high half of a pushed slot's posted word: message `sequence` (and the one before
// it) went through staging rather than into the ghost cells.
constexpr std::uint32_t this_one_staged = 1, previous_staged = 2;

// Writes the pending message: into the ghost cells if the receiver has said they are free for it;
// else into staging half sequence % 2 once the receiver has consumed the message that half held
// last (it asks for the message before this one).
bool try_write(SendSlot& slot) {
  const std::uint32_t free = load(slot.local_acked);  // acquire: after the receiver's reads
  bool staged = false;
  if (free == slot.sequence) {
    slot.push.run();
  } else if (is_previous(free, slot.sequence)) {
    slot.pack_into[slot.sequence & 1u].run();
    staged = true;
  } else {
    return false;
  }
  const std::uint32_t how = (staged ? this_one_staged : 0) | (slot.last_staged ? previous_staged : 0);
  store(slot.remote_posted, posted_word(slot.sequence, how));  // release: the values before the counter
  slot.last_staged = staged;
  slot.push_pending = false;
  return true;
}

}  // namespace

void post_push(PlanState& p, SendSlot& slot) {
  slot.sequence = next_sequence(slot.sequence);
  slot.push_pending = true;
  if (!try_write(slot)) p.pending_pushes.push_back(static_cast<std::int32_t>(&slot - p.sends.data()));
}

void progress_pushes(PlanState& p) {
  if (p.pending_pushes.empty()) return;
  std::size_t kept = 0;
  for (std::int32_t index : p.pending_pushes)
    if (!try_write(p.sends[static_cast<std::size_t>(index)])) p.pending_pushes[kept++] = index;
  p.pending_pushes.resize(kept);
}

namespace {
void serve_pushes(void* plan) { progress_pushes(*static_cast<PlanState*>(plan)); }
}  // namespace

void owe_pushes_to_world(PlanState& p) {
  for (const SendSlot& slot : p.sends)
    if (slot.path == SlotPath::pushed) {
      p.w->owed_work.push_back({&serve_pushes, &p});
      return;
    }
}

void forget_pushes(PlanState& p) {
  if (p.w == nullptr) return;
  auto& owed = p.w->owed_work;
  std::erase_if(owed, [&](const WorldState::OwedWork& work) { return work.context == &p; });
}

void signal_ghosts_free(ReceiveSlot& slot) {
  const std::uint32_t next = next_sequence(slot.sequence);
  if (slot.free_signalled == next) return;  // said already: no store into the sender's line
  store(slot.remote_acked, next);
  slot.free_signalled = next;
}

bool try_receive_push(PlanState& p, ReceiveSlot& slot) {
  signal_ghosts_free(slot);
  const std::uint64_t word = load(slot.local_posted);  // acquire: the values are in
  const std::uint32_t posted = posted_sequence(word), how = posted_acknowledgement(word);
  if (posted == slot.sequence) return false;
  const std::uint32_t expected = next_sequence(slot.sequence);
  // A sender that stages may be one message further (into the other staging half).
  bool staged = false;
  if (posted == expected) staged = (how & this_one_staged) != 0;
  else if (posted == next_sequence(expected)) staged = (how & previous_staged) != 0;
  else
    raise(Errc::internal, "plan " + std::to_string(p.id) + ": " + p.slot_name(slot.channel, slot.rank) +
                              " expected pushed message " + std::to_string(expected) + " but the sender posted " +
                              std::to_string(posted));
  // Written into the ghost cells: nothing to copy, and nothing to acknowledge (the sender copied
  // its own data, so it may change it again; the next "free" is the handshake). Staged: copy it
  // out; asking for the next message says the staging half is free again.
  if (staged) slot.unpack[expected & 1u].run();
  slot.sequence = slot.consumed = expected;
  return true;
}

std::string describe_push_wait(const PlanState& p, const SendSlot& slot) {
  const std::uint32_t before = slot.sequence <= 1 ? 0xFFFFFFFEu : slot.sequence - 1;
  std::ostringstream text;
  text << "rank " << slot.rank << " to ask for message " << before << " (then message " << slot.sequence
       << " can be staged) or " << slot.sequence << " (then it can be written into its ghost cells) on "
       << p.slot_name(slot.channel, slot.rank) << " of plan " << p.id << " (" << path_name(slot.path)
       << "; the receiver last asked for message " << load(slot.local_acked)
       << ", counter posted to the receiver: " << posted_sequence(load(slot.remote_posted))
       << "; a rank asks for the next message in test_recv, wait_recv, start and exchange)";
  return text.str();
}

}  // namespace ghostwire::detail
