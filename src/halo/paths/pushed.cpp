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
// A message that can go neither way waits (PushedSend::pending, the plan state's owed list): every
// later call of the plan and every wait of the process writes it when it can (WorldState::owed_work).
// Why stage rather than wait for `free`: docs/plans.md, "One copy for sparse messages".
#include <atomic>
#include <sstream>

#include "ghostwire/error.hpp"
#include "halo/paths/node_peer.hpp"
#include "halo/paths/staging.hpp"
#include "runtime/wait.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {
namespace {

const char* const description =
    "intra-node, pushed (sparse data the sender writes into the receiver's ghost cells, or stages if the receiver is "
    "not ready)";

// Bits of the high half of a pushed slot's posted word: message `sequence` (and the one before it)
// went through staging rather than into the ghost cells.
constexpr std::uint32_t this_one_staged = 1, previous_staged = 2;

class PushedSend;

}  // namespace

const PathType& pushed_path();

namespace {

// The plan's pushed send slots waiting for their receivers, guarded by `lock` (threads may post and
// serve them at once); `count` lets every call see at a glance that there are none.
class PushedPlanState final : public PathPlanState {
 public:
  void after_build(PlanState& p) override;
  bool has_progress() const override { return pushes_; }
  void progress(PlanState& p) override;
  void owe(std::int32_t send_index);

 private:
  std::vector<std::int32_t> owed_;
  std::atomic<bool> lock_{false};
  std::atomic<std::size_t> count_{0};
  bool pushes_ = false;  // some send slot of the plan is pushed
};

class PushedSend final : public SendPath {
 public:
  explicit PushedSend(const SlotBuild& b);
  void post(PlanState& p, SendSlot& slot, Post how) override;
  // The sender copied its own data: it is free once the copy is done.
  bool acknowledged(PlanState&, SendSlot&) override { return !is_pending(); }
  bool ready_for_next(PlanState&, SendSlot&) override { return !is_pending(); }
  bool exchange_done(PlanState&, SendSlot&) override { return !is_pending(); }
  std::string describe_wait(const PlanState& p, const SendSlot& slot) const override;
  std::string not_acknowledged_hint(const SendSlot& slot) const override;
  std::string cannot_follow(const PlanState&, const SendSlot&, const MemoryMove&) const override { return {}; }
  void follow(PlanState&, SendSlot&, const MemoryMove& move) override {
    push_.follow(move);
    for (CopyProgram& pack : pack_into_) pack.follow(move);
  }
  // Writes the pending message if the receiver is ready for it; false if it still is not.
  bool try_write(SendSlot& slot);

 private:
  bool is_pending() const { return std::atomic_ref<const bool>(pending_).load(std::memory_order_acquire); }
  PushedPlanState* state_;
  std::uint64_t* posted_ = nullptr;             // the receiver's: the last message written, and how
  const std::uint32_t* ghosts_free_ = nullptr;  // mine, written by the receiver: the message its ghosts are free for
  CopyProgram push_;                            // from my send layout into the receiver's ghost cells
  CopyProgram pack_into_[2];                    // into staging half k % 2 when the receiver was not ready
  // Message `sequence` is sent but not written yet: the receiver had neither said its ghost cells
  // were free nor taken the message before last (whose staging half this one needs); later calls
  // write it (the plan state's owed list), possibly on another thread: read and written atomically.
  bool pending_ = false;
  bool last_staged_ = false;  // the last message went through staging
};

class PushedReceive final : public ReceivePath {
 public:
  explicit PushedReceive(const SlotBuild& b);
  void hand_over(PlanState&, ReceiveSlot& slot) override;
  bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) override;
  std::string describe_wait(const PlanState& p, const ReceiveSlot& slot) const override;
  // The ghost cells are in a Segment (the sender writes into them); only the copies out of staging
  // keep their addresses, and those never move.
  std::string cannot_follow(const PlanState&, const ReceiveSlot&, const MemoryMove&) const override { return {}; }
  void follow(PlanState&, ReceiveSlot&, const MemoryMove& move) override {
    for (CopyProgram& unpack : unpack_) unpack.follow(move);
  }

 private:
  const std::uint64_t* posted_ = nullptr;  // mine, written by the sender
  std::uint32_t* ghosts_free_ = nullptr;   // the sender's: the message my ghost cells are free for
  std::uint32_t free_signalled_ = 0;       // the last value stored there
  CopyProgram unpack_[2];                  // out of the sender's staging half k % 2
};

void serve_pushes(void* plan) {
  PlanState& p = *static_cast<PlanState*>(plan);
  for (PathPlanState* state : p.progressing) state->progress(p);
}

void PushedPlanState::after_build(PlanState& p) {
  for (const SendSlot& slot : p.sends) pushes_ |= slot.type == &pushed_path();
  if (pushes_) p.w->owed_work.push_back({&serve_pushes, &p});
}

void PushedPlanState::owe(std::int32_t send_index) {
  while (lock_.exchange(true, std::memory_order_acquire)) cpu_relax();
  owed_.push_back(send_index);
  count_.store(owed_.size(), std::memory_order_release);
  lock_.store(false, std::memory_order_release);
}

void PushedPlanState::progress(PlanState& p) {
  if (count_.load(std::memory_order_acquire) == 0) return;
  if (lock_.exchange(true, std::memory_order_acquire)) return;  // another thread serves them
  std::size_t kept = 0;
  for (std::int32_t index : owed_) {
    SendSlot& slot = p.sends[static_cast<std::size_t>(index)];
    if (!static_cast<PushedSend*>(slot.path.get())->try_write(slot)) owed_[kept++] = index;
  }
  owed_.resize(kept);
  count_.store(kept, std::memory_order_release);
  lock_.store(false, std::memory_order_release);
}

PushedSend::PushedSend(const SlotBuild& b) : state_(static_cast<PushedPlanState*>(b.state)) {
  const PeerSendCounters counters = peer_send_counters(b);
  posted_ = counters.posted;
  ghosts_free_ = counters.consumed;
  WireReader section = b.peer_section();
  const MappedPieces ghosts = b.map_peer_pieces(read_locations(section));
  push_ = CopyProgram::build(b.mine, ghosts.pieces);
  for (int parity = 0; parity < 2; ++parity) pack_into_[parity] = pack_into_staging(b, parity);
}

bool PushedSend::try_write(SendSlot& slot) {
  const std::uint32_t free = load(ghosts_free_);  // acquire: after the receiver's reads
  bool staged = false;
  if (free == slot.sequence) {
    push_.run();
  } else if (is_previous(free, slot.sequence)) {
    pack_into_[parity_of(slot.sequence)].run();
    staged = true;
  } else {
    return false;
  }
  const std::uint32_t how = (staged ? this_one_staged : 0) | (last_staged_ ? previous_staged : 0);
  store(posted_, posted_word(slot.sequence, how));  // release: the values before the counter
  last_staged_ = staged;
  // Release: a thread that sees the slot free again (acknowledged, ready_for_next) sees the copy done.
  std::atomic_ref<bool>(pending_).store(false, std::memory_order_release);
  return true;
}

void PushedSend::post(PlanState& p, SendSlot& slot, Post) {
  slot.sequence = next_sequence(slot.sequence);
  pending_ = true;  // nobody else looks at the slot until it is owed
  if (try_write(slot)) return;
  state_->owe(static_cast<std::int32_t>(&slot - p.sends.data()));
}

std::string PushedSend::describe_wait(const PlanState& p, const SendSlot& slot) const {
  std::ostringstream text;
  text << "rank " << slot.rank << " to ask for message " << previous_sequence(slot.sequence) << " (then message "
       << slot.sequence << " can be staged) or " << slot.sequence << " (then it can be written into its ghost cells) on "
       << p.slot_name(slot.channel, slot.rank) << " of plan " << p.id << " (" << description
       << "; the receiver last asked for message " << load(ghosts_free_)
       << ", counter posted to the receiver: " << posted_sequence(load(posted_))
       << "; a rank asks for the next message in test_recv, wait_recv, start and exchange)";
  return text.str();
}

std::string PushedSend::not_acknowledged_hint(const SendSlot& slot) const {
  return "has not been written yet: rank " + std::to_string(slot.rank) +
         " has not asked for the message before it (a rank asks for the next message in test_recv, wait_recv, start "
         "and exchange); call wait_send before sending again";
}

PushedReceive::PushedReceive(const SlotBuild& b) {
  const PeerReceiveCounters counters = peer_receive_counters(b);
  posted_ = counters.posted;
  ghosts_free_ = counters.consumed;
  for (int parity = 0; parity < 2; ++parity) unpack_[parity] = b.unpack_from(peer_staging(b, parity));
}

void PushedReceive::hand_over(PlanState&, ReceiveSlot& slot) {
  const std::uint32_t next = next_sequence(slot.sequence);
  if (free_signalled_ == next) return;  // said already: no store into the sender's line
  store(ghosts_free_, next);
  free_signalled_ = next;
}

bool PushedReceive::try_receive(PlanState& p, ReceiveSlot& slot, Receipt) {
  hand_over(p, slot);
  const std::uint64_t word = load(posted_);  // acquire: the values are in
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
  if (staged) unpack_[parity_of(expected)].run();
  slot.sequence = slot.consumed = expected;
  return true;
}

std::string PushedReceive::describe_wait(const PlanState& p, const ReceiveSlot& slot) const {
  std::ostringstream text;
  text << "message " << next_sequence(slot.sequence) << " on " << p.slot_name(slot.channel, slot.rank) << " of plan "
       << p.id << " (" << description << "; received so far: " << slot.sequence
       << ", sender's posted counter: " << posted_sequence(load(posted_)) << ", this rank asked for message "
       << load(ghosts_free_)
       << "; a sender writes a message when it sends it, or in its next call of ghostwire after it was asked for)";
  return text.str();
}

class PushedType final : public PathType {
 public:
  const char* name() const override { return "pushed"; }
  const char* description() const override { return ::ghostwire::detail::description; }
  bool between_nodes() const override { return false; }
  bool needs_receiver_consent() const override { return true; }
  std::unique_ptr<PathPlanState> prepare(PlanState&, std::size_t, const std::string&) const override {
    return std::make_unique<PushedPlanState>();
  }
  // Plans acknowledged by reply run slot by slot with a message posted at every send() and answered
  // on the same slot; a push would wait for the receiver's next test_recv, a round trip more per
  // message. Automatically the sender pushes what it would otherwise stage for sparseness: data it
  // cannot map or sparse data (dense data staged because cores are shared measured no faster
  // pushed); the receiver takes pushes into dense ghosts in Segments (forced: any in Segments).
  bool offers(const SlotSide& side, Choice how, const PathPlanState*) const override {
    if (side.acknowledge_by_reply) return false;
    if (!side.sending) return side.in_segments && (how == Choice::forced || side.dense);
    if (how == Choice::forced) return true;
    return !side.in_segments || (!side.dense && !side.to_self);
  }
  SlotMemory memory(const SlotSide& side) const override { return {side.sending ? staging_bytes(side.bytes) : 0, 0}; }
  void describe_side(const SlotSide& side, WireWriter& out) const override {
    if (!side.sending) write_locations(out, locations_of(*side.plan, *side.pieces));
  }
  std::unique_ptr<SendPath> build_send(const SlotBuild& b) const override { return std::make_unique<PushedSend>(b); }
  std::unique_ptr<ReceivePath> build_receive(const SlotBuild& b) const override {
    return std::make_unique<PushedReceive>(b);
  }
};

}  // namespace

const PathType& pushed_path() {
  static const PushedType type;
  return type;
}

}  // namespace ghostwire::detail
