// Plan: construction, description and the exchange operations (the hot path).
#include "ghostwire/plan.hpp"

#include <algorithm>
#include <atomic>
#include <sstream>

#include "ghostwire/error.hpp"
#include "plan_state.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/segment_state.hpp"
#include "runtime/wait.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire {
namespace detail {

const char* path_name(SlotPath path) {
  switch (path) {
    case SlotPath::intra: return "intra-node, read in place";
    case SlotPath::staged: return "intra-node, staged (packed by the sender: private or sparse data)";
    case SlotPath::inter: return "inter-node, notified write";
    case SlotPath::messages: return "inter-node, two-sided message";
    case SlotPath::pushed:
      return "intra-node, pushed (sparse data the sender writes into the receiver's ghost cells, or stages if the "
             "receiver is not ready)";
  }
  return "?";
}

std::string PlanState::slot_name(std::size_t channel, int rank) const {
  return "channel " + std::to_string(channel) + " with rank " + std::to_string(rank);
}

std::size_t PlanState::slot(std::size_t channel, int neighbour_rank, const char* call) const {
  if (channel >= channels)
    raise(Errc::out_of_range, std::string(call) + ": channel " + std::to_string(channel) + " is not in [0, " +
                                  std::to_string(channels) + ") of plan " + std::to_string(id));
  int n = neighbour_rank >= 0 && static_cast<std::size_t>(neighbour_rank) < neighbour_index.size()
              ? neighbour_index[static_cast<std::size_t>(neighbour_rank)]
              : -1;
  if (n < 0)
    raise(Errc::out_of_range, std::string(call) + ": rank " + std::to_string(neighbour_rank) +
                                  " is not a neighbour in plan " + std::to_string(id));
  return static_cast<std::size_t>(n) * channels + channel;
}

namespace {

void require_committed(const PlanState& p, const char* call) {
  if (!p.committed)
    raise(Errc::state, std::string(call) + ": plan " + std::to_string(p.id) + " is not committed; call commit() first");
}

SendSlot& send_slot(PlanState& p, std::size_t channel, int rank, const char* call) {
  require_committed(p, call);
  std::int32_t index = p.send_slot_of[p.slot(channel, rank, call)];
  if (index < 0)
    raise(Errc::state, std::string(call) + ": " + p.slot_name(channel, rank) + " has no send layout in plan " +
                           std::to_string(p.id));
  return p.sends[static_cast<std::size_t>(index)];
}

ReceiveSlot& receive_slot(PlanState& p, std::size_t channel, int rank, const char* call) {
  require_committed(p, call);
  std::int32_t index = p.receive_slot_of[p.slot(channel, rank, call)];
  if (index < 0)
    raise(Errc::state, std::string(call) + ": " + p.slot_name(channel, rank) + " has no receive layout in plan " +
                           std::to_string(p.id));
  return p.receives[static_cast<std::size_t>(index)];
}

// Has the receiver acknowledged the last message of this slot?
bool acknowledged(PlanState& p, SendSlot& slot) {
  if (slot.path == SlotPath::messages) return message_acknowledged(p, slot);
  // Pushed: the sender copied its own data, so it is free once the copy is done.
  if (slot.path == SlotPath::pushed) return !slot.push_pending;
  if (slot.path != SlotPath::inter) {
    // A piggybacked acknowledgement (acknowledge_by_reply) needs no load from the other core.
    if (p.acknowledge_by_reply && slot.acknowledged == slot.sequence) return true;
    return load(slot.local_acked) == slot.sequence;
  }
  if (slot.acknowledged != slot.sequence) {
    if (NotificationValue value = notify_test(*p.segment, slot.ack_id)) slot.acknowledged = value;
  }
  return slot.acknowledged == slot.sequence;
}

// `explicit_send`: from send(), which promises test_send an acknowledgement from the receiver.
void post(PlanState& p, SendSlot& slot, bool explicit_send) {
  std::uint32_t next = next_sequence(slot.sequence);
  switch (slot.path) {
    case SlotPath::messages:
      // The data is packed here and MPI's matching keeps the receiver's buffers safe, so with
      // acknowledge_by_reply no acknowledgement message is asked for: the slot is free again once
      // MPI has the message, as in exchange() (the reply needs no second message either).
      post_message(p, slot, explicit_send && !p.acknowledge_by_reply);
      return;
    case SlotPath::pushed:
      post_push(p, slot);
      return;
    case SlotPath::staged:
      slot.pack_into[next & 1u].run();
      [[fallthrough]];
    case SlotPath::intra: {
      // With acknowledge_by_reply the same store acknowledges what this rank consumed of the
      // receiver's messages on this slot.
      std::uint32_t consumed = 0;
      if (p.acknowledge_by_reply && slot.reverse_receive >= 0)
        consumed = p.receives[static_cast<std::size_t>(slot.reverse_receive)].consumed;
      slot.sequence = next;
      store(slot.remote_posted, posted_word(next, consumed));
      return;
    }
    case SlotPath::inter: {
      slot.pack.run();
      int parity = static_cast<int>(next & 1u);
      slot.sequence = next;
      write_notify(p.pack_buffer.data(), slot.rank, *p.segment, slot.remote_offset[parity], slot.bytes,
                   slot.remote_data_id[parity], next);
      return;
    }
  }
}

std::string describe_send_wait(const PlanState& p, const SendSlot& slot) {
  if (slot.path == SlotPath::pushed) return describe_push_wait(p, slot);
  std::ostringstream text;
  text << "the acknowledgement of message " << slot.sequence << " on " << p.slot_name(slot.channel, slot.rank)
       << " of plan " << p.id << " (" << path_name(slot.path) << "; ";
  if (slot.path == SlotPath::messages)
    text << "last acknowledgement seen: " << slot.acknowledged << ", acknowledgement asked for: "
         << (slot.last_wants_ack ? "yes" : "no, waiting for the send to complete") << ")";
  else if (slot.path == SlotPath::inter)
    text << "last acknowledgement seen: " << slot.acknowledged << ")";
  else
    text << "receiver's acknowledgement counter: " << load(slot.local_acked)
         << ", counter posted to the receiver: " << posted_sequence(load(slot.remote_posted))
         << (p.acknowledge_by_reply ? ", acknowledgement by reply seen: " + std::to_string(slot.acknowledged) : "")
         << ")";
  return text.str();
}

std::string describe_receive_wait(const PlanState& p, const ReceiveSlot& slot) {
  std::ostringstream text;
  text << "message " << next_sequence(slot.sequence) << " on " << p.slot_name(slot.channel, slot.rank) << " of plan "
       << p.id << " (" << path_name(slot.path) << "; received so far: " << slot.sequence;
  if (slot.path == SlotPath::intra || slot.path == SlotPath::staged)
    text << ", sender's posted counter: " << posted_sequence(load(slot.local_posted))
         << ", acknowledgement this rank last gave: " << load(slot.remote_acked)
         << (slot.held ? ", the last message is held in place (not released)" : "");
  else if (slot.path == SlotPath::pushed)
    text << ", sender's posted counter: " << posted_sequence(load(slot.local_posted))
         << ", this rank asked for message " << load(slot.remote_acked)
         << "; a sender writes a message when it sends it, or in its next call of ghostwire after it was asked for";
  text << ")";
  return text.str();
}

// How a receive is done: copied into the receive layout (test_recv), read in place where the slot
// has a view (test_recv_in_place), or as part of an exchange (finish).
enum class Receipt { copy, in_place, exchange };

// Whether a consumed message of a node peer is acknowledged by a store of its own now, or rides on
// this rank's next send on the slot (acknowledge_by_reply; not in exchanges, whose finish() waits
// for every acknowledgement, nor on slots this rank never sends back on).
bool acknowledges_at_once(const PlanState& p, const ReceiveSlot& slot, Receipt receipt) {
  return !p.acknowledge_by_reply || receipt == Receipt::exchange || slot.reverse_send < 0;
}

void consume(PlanState& p, ReceiveSlot& slot, Receipt receipt) {
  slot.consumed = slot.sequence;
  if (acknowledges_at_once(p, slot, receipt)) store(slot.remote_acked, slot.sequence);
}

bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) {
  if (slot.path == SlotPath::pushed) return try_receive_push(p, slot);  // no copy: the values are in place
  if (slot.path == SlotPath::messages) {
    if (!try_receive_message(p, slot, receipt == Receipt::exchange)) return false;
    slot.consumed = slot.sequence;
    return true;
  }
  std::uint32_t expected = next_sequence(slot.sequence);
  if (slot.path != SlotPath::inter) {
    std::uint64_t word = load(slot.local_posted);
    std::uint32_t posted = posted_sequence(word);
    if (posted == slot.sequence) return false;
    // Into a double buffer (staged) the sender may be one message further than the one expected.
    if (posted != expected && !(slot.path == SlotPath::staged && posted == next_sequence(expected)))
      raise(Errc::internal, "plan " + std::to_string(p.id) + ": " + p.slot_name(slot.channel, slot.rank) +
                                " expected message " + std::to_string(expected) + " but the sender posted " +
                                std::to_string(posted));
    if (p.acknowledge_by_reply && slot.reverse_send >= 0)
      p.sends[static_cast<std::size_t>(slot.reverse_send)].acknowledged = posted_acknowledgement(word);
    slot.sequence = expected;
    if (slot.path == SlotPath::staged) slot.view = slot.staging[expected & 1u];
    if (receipt == Receipt::in_place && slot.view != nullptr) {
      slot.held = true;
      return true;
    }
    if (slot.path == SlotPath::staged) slot.unpack[expected & 1u].run();
    else slot.copy.run();
    consume(p, slot, receipt);
    return true;
  }
  int parity = static_cast<int>(expected & 1u);
  NotificationValue value = notify_test(*p.segment, slot.data_id[parity]);
  if (value == 0) return false;
  if (value != expected)
    raise(Errc::internal, "plan " + std::to_string(p.id) + ": " + p.slot_name(slot.channel, slot.rank) +
                              " expected message " + std::to_string(expected) + " but received sequence number " +
                              std::to_string(value));
  // Acknowledge before unpacking: the next message lands in the other half of the double buffer.
  notify(slot.rank, *p.segment, slot.remote_ack_id, value);
  slot.unpack[parity].run();
  slot.sequence = slot.consumed = expected;
  return true;
}

// The buffer message `sequence + 1` goes to is free: in place, the last message was acknowledged
// (the receiver has read the live data); into a double buffer (staged, notified writes), the
// message before it was, so a sender may run one message ahead of its receiver. (Ranks that share
// a core then take turns with fewer switches: the receiver need not have run since the last
// message for the sender to post the next.)
bool ready_for_next(PlanState& p, SendSlot& slot) {
  if (acknowledged(p, slot)) return true;  // pushed: the last message is written
  if (slot.path == SlotPath::inter) return is_previous(slot.acknowledged, slot.sequence);
  if (slot.path != SlotPath::staged) return false;
  return is_previous(load(slot.local_acked), slot.sequence) ||
         (p.acknowledge_by_reply && is_previous(slot.acknowledged, slot.sequence));
}

// Before a receive: a pushed slot's ghost cells are handed over (the caller asks for the next
// message, so it no longer reads the last one), and pushes this rank owes are written where the
// receiver is ready, so two ranks that both sent before receiving keep each other moving.
void prepare_receive(PlanState& p, ReceiveSlot& slot) {
  if (slot.path == SlotPath::pushed) signal_ghosts_free(slot);
  if (slot.path == SlotPath::messages) hand_over_ghosts(p, slot);
  progress_pushes(p);
}

void start_sends(PlanState& p, const std::vector<std::int32_t>& sends, const std::vector<std::int32_t>& receives) {
  // The ghost cells are free from here on (exchange() and start() hand them over; finish() gives
  // them back filled): say so to node peers that push, first, so they can write into them while
  // this rank posts its own messages.
  for (std::int32_t index : receives) {
    ReceiveSlot& slot = p.receives[static_cast<std::size_t>(index)];
    if (slot.path == SlotPath::pushed) signal_ghosts_free(slot);
    if (slot.path == SlotPath::messages) hand_over_ghosts(p, slot);
  }
  for (std::int32_t index : sends) {
    SendSlot& slot = p.sends[static_cast<std::size_t>(index)];
    // finish() waited for in-place reads and pushes. Other paths packed their data and only need
    // the buffer the next message goes to (the messages path waits for that inside post_message).
    if (slot.path != SlotPath::messages)
      wait_until(
          *p.w, [&] { progress_pushes(p); return ready_for_next(p, slot); },
          [&] { return describe_send_wait(p, slot); }, p.spin_polls);
    post(p, slot, false);  // pushed: written now if the receiver is ready, else in finish()
    slot.deferred = slot.path != SlotPath::intra;
  }
}

void finish_exchange(PlanState& p, const std::vector<std::int32_t>& receives, const std::vector<std::int32_t>& sends) {
  p.pending.assign(receives.begin(), receives.end());
  Waiter waiter(*p.w, p.spin_polls);
  while (!p.pending.empty()) {
    progress_pushes(p);  // a peer may be waiting for them before it can finish its own pushes
    std::size_t kept = 0;
    for (std::int32_t index : p.pending)
      if (!try_receive(p, p.receives[static_cast<std::size_t>(index)], Receipt::exchange)) p.pending[kept++] = index;
    bool progressed = kept < p.pending.size();
    p.pending.resize(kept);
    if (!progressed && kept) {
      if (p.needs_world_progress) p.w->progress();
      waiter.pause([&] { return describe_receive_wait(p, p.receives[static_cast<std::size_t>(p.pending.front())]); });
    }
  }
  // Neighbours read intra-node data in place: wait until they have. Messages must complete
  // locally: a large (rendezvous) message only moves while its sender keeps calling MPI, so
  // returning before it is done would stall the receiver until this rank's next exchange.
  // Pushes must be written before the application may change the data they copy.
  for (std::int32_t index : sends) {
    SendSlot& slot = p.sends[static_cast<std::size_t>(index)];
    if (slot.path == SlotPath::intra || slot.path == SlotPath::pushed) {
      wait_until(
          *p.w, [&] { progress_pushes(p); return acknowledged(p, slot); },
          [&] { return describe_send_wait(p, slot); }, p.spin_polls);
    } else if (slot.path == SlotPath::messages) {
      wait_until(*p.w, [&] { return message_buffer_free(p, slot, slot.sequence); },
                 [&] { return describe_send_wait(p, slot); }, p.spin_polls);
    }
  }
}

// A moved-from Plan has no state: calling it is a use after destroy, an error rather than a crash.
void require_state(const std::unique_ptr<PlanState>& state, const char* call) {
  if (!state)
    raise(Errc::state, std::string(call) + ": this Plan was moved from (its state went to the Plan it was moved "
                                           "into); use that one");
}

}  // namespace
}  // namespace detail

using detail::PlanState;

namespace {

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

// Held for the length of one communicating call of a plan when MPI is below MPI_THREAD_MULTIPLE:
// a second thread entering the same plan meanwhile gets Errc::state naming the plan and the call,
// instead of racing on the plan's counters and MPI requests. One atomic exchange per call.
class ExclusiveUse {
 public:
  ExclusiveUse(PlanState& p, const char* call) {
    if (!p.single_thread_use) return;
    if (p.in_use.exchange(true, std::memory_order_acquire))
      raise(Errc::state, std::string(call) + ": plan " + std::to_string(p.id) +
                             " is being used by another thread at the same time; MPI provides " +
                             thread_level_name(p.w->thread_level) +
                             ", so a plan may serve one thread at a time (initialise MPI with "
                             "MPI_THREAD_MULTIPLE, or give each thread its own plan)");
    held_ = &p;
  }
  ~ExclusiveUse() {
    if (held_) held_->in_use.store(false, std::memory_order_release);
  }
  ExclusiveUse(const ExclusiveUse&) = delete;
  ExclusiveUse& operator=(const ExclusiveUse&) = delete;

 private:
  PlanState* held_ = nullptr;
};

}  // namespace

Plan::Plan(World& world, std::span<const int> neighbours, std::size_t channels)
    : state_(std::make_unique<PlanState>()) {
  detail::require_mpi_running("Plan");
  PlanState& p = *state_;
  p.world = &world;
  p.w = &detail::world_state(world);
  p.id = p.w->next_plan_id++;
  p.single_thread_use = p.w->thread_level < MPI_THREAD_MULTIPLE;
  if (channels == 0) raise(Errc::invalid_argument, "Plan: channels is 0; a plan needs at least one channel");
  p.channels = channels;
  p.neighbour_index.assign(static_cast<std::size_t>(world.size()), -1);
  for (int rank : neighbours) {
    if (rank < 0 || rank >= world.size())
      raise(Errc::out_of_range, "Plan: neighbour rank " + std::to_string(rank) + " is not in [0, " +
                                    std::to_string(world.size()) + ")");
    if (p.neighbour_index[static_cast<std::size_t>(rank)] >= 0)
      raise(Errc::invalid_argument, "Plan: neighbour rank " + std::to_string(rank) +
                                        " is listed twice; use channels to send several messages to one rank");
    p.neighbour_index[static_cast<std::size_t>(rank)] = static_cast<int>(p.neighbours.size());
    p.neighbours.push_back(rank);
  }
  std::size_t slots = p.neighbours.size() * channels;
  if (slots > (std::size_t{1} << 24))
    raise(Errc::invalid_argument, "Plan: " + std::to_string(slots) + " channel x neighbour slots exceed the limit of 16777216");
  p.send_pieces.resize(slots);
  p.receive_pieces.resize(slots);
}

Plan::~Plan() = default;
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;

Region Plan::add_memory(Segment& segment, std::size_t element_size, std::size_t offset_bytes, std::size_t bytes) {
  detail::require_state(state_, "Plan::add_memory");
  PlanState& p = *state_;
  if (element_size == 0) raise(Errc::invalid_argument, "Plan::add_memory: element_size is 0");
  if (offset_bytes > segment.size())
    raise(Errc::out_of_range, "Plan::add_memory: offset " + std::to_string(offset_bytes) + " is beyond the segment's " +
                                  std::to_string(segment.size()) + " bytes");
  if (bytes == static_cast<std::size_t>(-1)) bytes = segment.size() - offset_bytes;
  if (bytes > segment.size() - offset_bytes)
    raise(Errc::out_of_range, "Plan::add_memory: bytes [" + std::to_string(offset_bytes) + ", " +
                                  std::to_string(offset_bytes + bytes) + ") exceed the segment's " +
                                  std::to_string(segment.size()) + " bytes");
  if (&segment.world() != p.world)
    raise(Errc::invalid_argument, "Plan::add_memory: the segment belongs to another World than the plan");
  p.regions.push_back({segment.id(), offset_bytes, segment.data() + offset_bytes, bytes, element_size});
  return Region{static_cast<int>(p.regions.size() - 1)};
}

Region Plan::add_memory(void* base, std::size_t bytes, std::size_t element_size) {
  detail::require_state(state_, "Plan::add_memory");
  PlanState& p = *state_;
  if (element_size == 0) raise(Errc::invalid_argument, "Plan::add_memory: element_size is 0");
  if (base == nullptr && bytes > 0) raise(Errc::invalid_argument, "Plan::add_memory: base is null");
  // Memory inside one of the world's Segments is that Segment's memory, however it was given (a
  // ghost array placed in a Segment and handed to make_unstructured_plan by pointer, say): node
  // peers can then map it, so it can be read in place or pushed into instead of staged.
  auto* start = static_cast<std::byte*>(base);
  for (const detail::SegmentState* segment : p.w->segments) {
    if (segment == nullptr || start == nullptr) continue;
    std::byte* data = segment->data();
    std::size_t size = segment->sizes[static_cast<std::size_t>(p.w->rank)];
    if (start >= data && start <= data + size && bytes <= static_cast<std::size_t>(data + size - start)) {
      p.regions.push_back({segment->id, static_cast<std::size_t>(start - data), start, bytes, element_size});
      return Region{static_cast<int>(p.regions.size() - 1)};
    }
  }
  p.regions.push_back({-1, 0, start, bytes, element_size});
  return Region{static_cast<int>(p.regions.size() - 1)};
}

static void add_piece(PlanState& p, std::vector<std::vector<detail::PieceSpec>>& pieces, std::size_t channel,
                      int neighbour, Region region, const Layout& layout, const char* call) {
  if (p.committed) raise(Errc::state, std::string(call) + ": plan " + std::to_string(p.id) + " is already committed");
  if (region.id < 0 || static_cast<std::size_t>(region.id) >= p.regions.size())
    raise(Errc::invalid_argument, std::string(call) + ": region " + std::to_string(region.id) +
                                      " was not returned by add_memory of this plan");
  const auto& spec = p.regions[static_cast<std::size_t>(region.id)];
  std::size_t elements = spec.bytes / spec.element_size;
  if (layout.count() > 0 && layout.end() > elements)
    raise(Errc::out_of_range, std::string(call) + ": " + p.slot_name(channel, neighbour) + ": layout " +
                                  layout.describe() + " reaches element " + std::to_string(layout.end() - 1) +
                                  " but the region has " + std::to_string(elements) + " elements");
  pieces[p.slot(channel, neighbour, call)].push_back({region.id, layout});
}

Plan& Plan::add_send(std::size_t channel, int neighbour, Region region, const Layout& layout) {
  detail::require_state(state_, "Plan::add_send");
  add_piece(*state_, state_->send_pieces, channel, neighbour, region, layout, "Plan::add_send");
  return *this;
}

Plan& Plan::add_receive(std::size_t channel, int neighbour, Region region, const Layout& layout) {
  detail::require_state(state_, "Plan::add_receive");
  add_piece(*state_, state_->receive_pieces, channel, neighbour, region, layout, "Plan::add_receive");
  return *this;
}

Plan& Plan::acknowledge_by_reply() {
  detail::require_state(state_, "Plan::acknowledge_by_reply");
  if (state_->committed)
    raise(Errc::state, "Plan::acknowledge_by_reply: plan " + std::to_string(state_->id) +
                           " is already committed; choose how acknowledgements travel before commit()");
  state_->acknowledge_by_reply = true;
  return *this;
}

void Plan::commit() {
  detail::require_state(state_, "Plan::commit");
  if (state_->committed) raise(Errc::state, "Plan::commit: plan " + std::to_string(state_->id) + " is already committed");
  detail::require_mpi_running("Plan::commit");
  detail::commit_plan(*state_);
}

bool Plan::committed() const noexcept { return state_->committed; }

void Plan::send(std::size_t channel, int neighbour) {
  detail::require_state(state_, "Plan::send");
  PlanState& p = *state_;
  const ExclusiveUse exclusive(p, "Plan::send");
  detail::SendSlot& slot = detail::send_slot(p, channel, neighbour, "Plan::send");
  detail::progress_pushes(p);
  if (slot.deferred)
    detail::wait_until(
        *p.w, [&] { detail::progress_pushes(p); return detail::acknowledged(p, slot); },
        [&] { return detail::describe_send_wait(p, slot); }, p.spin_polls);
  if (!detail::acknowledged(p, slot)) {
    const std::string slot_text = "Plan::send: " + p.slot_name(channel, neighbour) + " of plan " + std::to_string(p.id) +
                                  ": message " + std::to_string(slot.sequence);
    if (slot.path == detail::SlotPath::pushed)
      raise(Errc::state, slot_text + " has not been written yet: rank " + std::to_string(neighbour) +
                             " has not asked for the message before it (a rank asks for the next message in "
                             "test_recv, wait_recv, start and exchange); call wait_send before sending again");
    raise(Errc::state, slot_text + " has not been acknowledged by the receiver yet; call wait_send before sending again");
  }
  detail::post(p, slot, true);
  slot.deferred = false;
}

bool Plan::test_recv(std::size_t channel, int neighbour) {
  detail::require_state(state_, "Plan::test_recv");
  PlanState& p = *state_;
  const ExclusiveUse exclusive(p, "Plan::test_recv");
  detail::ReceiveSlot& slot = detail::receive_slot(p, channel, neighbour, "Plan::test_recv");
  detail::prepare_receive(p, slot);
  if (slot.path == detail::SlotPath::inter && p.w->needs_progress) p.w->progress();  // (messages: MPI_Test progresses)
  return detail::try_receive(p, slot, detail::Receipt::copy);
}

void Plan::wait_recv(std::size_t channel, int neighbour) {
  detail::require_state(state_, "Plan::wait_recv");
  PlanState& p = *state_;
  const ExclusiveUse exclusive(p, "Plan::wait_recv");
  detail::ReceiveSlot& slot = detail::receive_slot(p, channel, neighbour, "Plan::wait_recv");
  detail::prepare_receive(p, slot);
  detail::wait_until(
      *p.w, [&] { detail::progress_pushes(p); return detail::try_receive(p, slot, detail::Receipt::copy); },
      [&] { return detail::describe_receive_wait(p, slot); }, p.spin_polls);
}

bool Plan::test_send(std::size_t channel, int neighbour) {
  detail::require_state(state_, "Plan::test_send");
  PlanState& p = *state_;
  const ExclusiveUse exclusive(p, "Plan::test_send");
  detail::SendSlot& slot = detail::send_slot(p, channel, neighbour, "Plan::test_send");
  detail::progress_pushes(p);
  return detail::acknowledged(p, slot);
}

void Plan::wait_send(std::size_t channel, int neighbour) {
  detail::require_state(state_, "Plan::wait_send");
  PlanState& p = *state_;
  const ExclusiveUse exclusive(p, "Plan::wait_send");
  detail::SendSlot& slot = detail::send_slot(p, channel, neighbour, "Plan::wait_send");
  detail::wait_until(
      *p.w, [&] { detail::progress_pushes(p); return detail::acknowledged(p, slot); },
      [&] { return detail::describe_send_wait(p, slot); }, p.spin_polls);
}

const std::byte* Plan::view(std::size_t channel, int neighbour) const {
  detail::require_state(state_, "Plan::view");
  PlanState& p = *state_;
  return detail::receive_slot(p, channel, neighbour, "Plan::view").view;
}

bool Plan::test_recv_in_place(std::size_t channel, int neighbour) {
  detail::require_state(state_, "Plan::test_recv_in_place");
  PlanState& p = *state_;
  const ExclusiveUse exclusive(p, "Plan::test_recv_in_place");
  detail::ReceiveSlot& slot = detail::receive_slot(p, channel, neighbour, "Plan::test_recv_in_place");
  if (slot.held)
    raise(Errc::state, "Plan::test_recv_in_place: " + p.slot_name(channel, neighbour) + " of plan " +
                           std::to_string(p.id) + ": message " + std::to_string(slot.sequence) +
                           " is still held in place; call release() when done reading it");
  detail::prepare_receive(p, slot);
  if (slot.path == detail::SlotPath::inter && p.w->needs_progress) p.w->progress();
  return detail::try_receive(p, slot, detail::Receipt::in_place);
}

void Plan::release(std::size_t channel, int neighbour) {
  detail::require_state(state_, "Plan::release");
  PlanState& p = *state_;
  const ExclusiveUse exclusive(p, "Plan::release");
  detail::ReceiveSlot& slot = detail::receive_slot(p, channel, neighbour, "Plan::release");
  if (!slot.held) return;
  slot.held = false;
  detail::consume(p, slot, detail::Receipt::in_place);
}

void Plan::acknowledge(std::size_t channel, int neighbour) {
  detail::require_state(state_, "Plan::acknowledge");
  PlanState& p = *state_;
  const ExclusiveUse exclusive(p, "Plan::acknowledge");
  detail::ReceiveSlot& slot = detail::receive_slot(p, channel, neighbour, "Plan::acknowledge");
  if (!p.acknowledge_by_reply || slot.remote_acked == nullptr || slot.consumed == 0 ||
      slot.path == detail::SlotPath::pushed)
    return;
  detail::store(slot.remote_acked, slot.consumed);
}

static void require_channel(const PlanState& p, std::size_t channel, const char* call) {
  detail::require_committed(p, call);
  if (channel >= p.channels)
    raise(Errc::out_of_range, std::string(call) + ": channel " + std::to_string(channel) + " is not in [0, " +
                                  std::to_string(p.channels) + ") of plan " + std::to_string(p.id));
}

void Plan::start() {
  detail::require_state(state_, "Plan::start");
  const ExclusiveUse exclusive(*state_, "Plan::start");
  detail::require_committed(*state_, "Plan::start");
  detail::start_sends(*state_, state_->all_sends, state_->all_receives);
}

void Plan::start(std::size_t channel) {
  detail::require_state(state_, "Plan::start");
  const ExclusiveUse exclusive(*state_, "Plan::start");
  require_channel(*state_, channel, "Plan::start");
  detail::start_sends(*state_, state_->sends_of_channel[channel], state_->receives_of_channel[channel]);
}

void Plan::finish() {
  detail::require_state(state_, "Plan::finish");
  const ExclusiveUse exclusive(*state_, "Plan::finish");
  detail::require_committed(*state_, "Plan::finish");
  detail::finish_exchange(*state_, state_->all_receives, state_->all_sends);
}

void Plan::finish(std::size_t channel) {
  detail::require_state(state_, "Plan::finish");
  const ExclusiveUse exclusive(*state_, "Plan::finish");
  require_channel(*state_, channel, "Plan::finish");
  detail::finish_exchange(*state_, state_->receives_of_channel[channel], state_->sends_of_channel[channel]);
}

void Plan::exchange() {
  detail::require_state(state_, "Plan::exchange");
  start();
  finish();
}

void Plan::exchange(std::size_t channel) {
  detail::require_state(state_, "Plan::exchange");
  start(channel);
  finish(channel);
}

World& Plan::world() const noexcept { return *state_->world; }
const std::vector<int>& Plan::neighbours() const noexcept { return state_->neighbours; }
std::size_t Plan::channels() const noexcept { return state_->channels; }
int Plan::id() const noexcept { return state_->id; }

std::string Plan::describe() const {
  detail::require_state(state_, "Plan::describe");
  const PlanState& p = *state_;
  std::ostringstream text;
  text << "plan " << p.id << " on rank " << p.w->rank << ": " << p.neighbours.size() << " neighbour(s), "
       << p.channels << " channel(s)" << (p.committed ? "" : ", not committed") << "\n";
  for (const auto& slot : p.sends)
    text << "  send    " << p.slot_name(slot.channel, slot.rank) << ": " << slot.bytes << " bytes, "
         << detail::path_name(slot.path) << "\n";
  for (const auto& slot : p.receives)
    text << "  receive " << p.slot_name(slot.channel, slot.rank) << ": " << slot.bytes << " bytes, "
         << detail::path_name(slot.path) << "\n";
  return text.str();
}

}  // namespace ghostwire
