// What a Plan holds: the user's description (regions, pieces per slot) and, after commit, one
// compact record per slot in use with precompiled copy programs and the counters it talks through.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "copy_program.hpp"
#include "ghostwire/layout.hpp"
#include "ghostwire/plan.hpp"
#include "ghostwire/segment.hpp"

namespace ghostwire::detail {

struct WorldState;
struct SegmentState;

struct RegionSpec {
  int segment = -1;              // the Segment's id; -1: private memory
  std::size_t offset_bytes = 0;  // within the segment's data
  std::byte* base = nullptr;
  std::size_t bytes = 0;
  std::size_t element_size = 1;
};

struct PieceSpec {
  int region;
  Layout layout;
};

// How a slot's message travels.
enum class SlotPath : std::uint8_t {
  intra,     // receiver copies from the sender's live data
  staged,    // sender packs into shared staging (two buffers, by message parity), receiver copies from there
  inter,     // pack, notified write (one-sided transport) into the receiver's double buffer
  messages,  // pack, persistent MPI send into the receiver's double buffer (two-sided transport)
  pushed,    // sender copies into the receiver's ghost cells once the receiver says they are free
};
const char* path_name(SlotPath path);

// Message sequence numbers run 1, 2, ..., 0xFFFFFFFE, 1, ...: 0 means "nothing yet", and the wrap
// from an even number to 1 keeps odd and even alternating, as the double buffers need (message k
// uses buffer k & 1; a wrap from 0xFFFFFFFF to 1 would put two odd messages in a row into one).
inline std::uint32_t next_sequence(std::uint32_t sequence) { return sequence >= 0xFFFFFFFEu ? 1u : sequence + 1; }
// The message before `sequence` (0 before the first; 0xFFFFFFFE before a wrapped 1 too: a double
// buffer's other half is free in both cases).
inline bool is_previous(std::uint32_t candidate, std::uint32_t sequence) {
  if (sequence <= 1) return candidate == 0 || candidate == 0xFFFFFFFEu;
  return candidate == sequence - 1;
}

// Between node peers, the sender's counter word is the message's sequence number in the low half
// and, with acknowledge_by_reply, the sequence number of the last message the sender has consumed
// on the reverse direction of the same slot in the high half (a piggybacked acknowledgement).
inline std::uint64_t posted_word(std::uint32_t sequence, std::uint32_t consumed) {
  return sequence | (static_cast<std::uint64_t>(consumed) << 32);
}
inline std::uint32_t posted_sequence(std::uint64_t word) { return static_cast<std::uint32_t>(word); }
inline std::uint32_t posted_acknowledgement(std::uint64_t word) { return static_cast<std::uint32_t>(word >> 32); }

// The counters node peers talk through: a release store publishes everything this rank wrote (and
// read) before it; an acquire load that sees the value sees all of that.
inline std::uint32_t load(const std::uint32_t* counter) {
  return std::atomic_ref<const std::uint32_t>(*counter).load(std::memory_order_acquire);
}
inline void store(std::uint32_t* counter, std::uint32_t value) {
  std::atomic_ref<std::uint32_t>(*counter).store(value, std::memory_order_release);
}
inline std::uint64_t load(const std::uint64_t* counter) {
  return std::atomic_ref<const std::uint64_t>(*counter).load(std::memory_order_acquire);
}
inline void store(std::uint64_t* counter, std::uint64_t value) {
  std::atomic_ref<std::uint64_t>(*counter).store(value, std::memory_order_release);
}

struct SendSlot {
  std::size_t channel = 0;
  int rank = -1;
  SlotPath path = SlotPath::intra;
  std::size_t bytes = 0;
  std::uint32_t sequence = 0;       // last message sent
  // inter, messages: last acknowledgement seen; intra, staged with acknowledge_by_reply: last
  // acknowledgement that came with a message of the receiver (posted_acknowledgement)
  std::uint32_t acknowledged = 0;
  std::int32_t reverse_receive = -1;  // the receive slot of the same (channel, neighbour), if any
  // The last message came from exchange()/start(), which does not wait for acknowledgements of
  // packed data; a later send() waits for it instead of reporting misuse.
  bool deferred = false;
  // intra / staged / pushed
  std::uint64_t* remote_posted = nullptr;    // receiver's counter word for this slot (posted_word)
  // Written by the receiver. intra, staged: the last message it consumed (its acknowledgement);
  // pushed: the message its ghost cells are free for (its "free" signal).
  const std::uint32_t* local_acked = nullptr;
  CopyProgram pack;                           // inter: into the pack buffer
  // pushed: from my send layout into the receiver's ghost cells (its receive layout, mapped here)
  CopyProgram push;
  // pushed: message `sequence` is sent but not yet written: the receiver had neither said its
  // ghost cells were free nor taken the message before last (whose staging half this one needs);
  // later calls write it (PlanState::pending_pushes).
  bool push_pending = false;
  // pushed: how the last message went: packed into staging half sequence % 2 (the receiver was
  // not ready) instead of written into the ghost cells.
  bool last_staged = false;
  // inter
  std::size_t remote_offset[2] = {0, 0};
  NotificationId remote_data_id[2] = {0, 0};
  NotificationId ack_id = 0;  // my notification the receiver sets
  // messages: message k goes from buffer k % 2 with a trailer (sequence, flags); staged: message k
  // is packed into staging buffer k % 2 (pack_into)
  std::byte* buffer[2] = {nullptr, nullptr};
  CopyProgram pack_into[2];
  MPI_Request send_request[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  std::uint32_t* ack_word = nullptr;          // filled by the acknowledgement message
  MPI_Request ack_request = MPI_REQUEST_NULL;  // receive of the acknowledgement
  int tag = 0;                                 // of even messages; odd + 1, acknowledgement + 2
  bool ack_pending = false;                   // ack_request is started and not yet complete
  bool last_wants_ack = false;                // the last message asked for an acknowledgement
};

struct ReceiveSlot {
  std::size_t channel = 0;
  int rank = -1;
  SlotPath path = SlotPath::intra;
  std::size_t bytes = 0;
  std::uint32_t sequence = 0;  // last message received
  std::uint32_t consumed = 0;  // last message copied out or released (so acknowledged, or to be)
  // Received by test_recv_in_place and not yet released: the sender's data is being read.
  bool held = false;
  std::int32_t reverse_send = -1;  // the send slot of the same (channel, neighbour), if any
  // intra / staged / pushed
  const std::byte* view = nullptr;  // the sender's data (intra, one run) or staging buffer (staged)
  const std::byte* staging[2] = {nullptr, nullptr};  // staged: the sender's two staging buffers
  const std::uint64_t* local_posted = nullptr;  // written by the sender (posted_word)
  // The sender's counter for this slot (its local_acked): my acknowledgements, or (pushed) the
  // message my ghost cells are free for.
  std::uint32_t* remote_acked = nullptr;
  std::uint32_t free_signalled = 0;  // pushed: the last "free" value stored there
  CopyProgram copy;
  // inter / messages / staged (from staging buffer k % 2)
  CopyProgram unpack[2];
  NotificationId data_id[2] = {0, 0};
  NotificationId remote_ack_id = 0;
  // messages
  std::byte* buffer[2] = {nullptr, nullptr};
  // Persistent, into buffer k % 2, posted ahead (buffer_posted) unless messages go in place.
  MPI_Request receive_request[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  bool buffer_posted[2] = {false, false};
  std::uint32_t* ack_word = nullptr;
  MPI_Request ack_request = MPI_REQUEST_NULL;  // send of the acknowledgement
  int tag = 0;                                 // of even messages; odd + 1, acknowledgement + 2
  // Receive layout one contiguous run (persistent requests only): messages received by exchange()
  // or finish() go straight into it, posted when the ghost cells are handed over (message_path.cpp).
  MPI_Request in_place_request[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};  // by parity, as the tags
  MPI_Datatype in_place_type = MPI_DATATYPE_NULL;  // the run, then the trailer at in_place_trailer
  std::byte* in_place_trailer = nullptr;
  bool in_place_posted = false;  // the next message's receive into the ghost cells is started
};

// The trailer after the data of a message on the messages path.
struct MessageTrailer {
  std::uint32_t sequence;
  std::uint32_t wants_acknowledgement;
};
inline constexpr int message_tags_per_slot = 3;  // data of even and odd messages, acknowledgement

struct PlanState {
  PlanState() = default;
  ~PlanState();  // frees the persistent requests and the communicator of the messages path
  PlanState(const PlanState&) = delete;
  PlanState& operator=(const PlanState&) = delete;

  World* world = nullptr;
  WorldState* w = nullptr;
  int id = 0;
  std::vector<int> neighbours;
  std::vector<int> neighbour_index;  // by rank, -1 if not a neighbour
  std::size_t channels = 1;
  std::vector<RegionSpec> regions;
  std::vector<std::vector<PieceSpec>> send_pieces, receive_pieces;  // by slot = n * channels + c

  bool committed = false;
  bool acknowledge_by_reply = false;
  // Below MPI_THREAD_MULTIPLE one plan may serve one thread at a time: every communicating call
  // holds `in_use` (an ExclusiveUse in plan.cpp), and a second thread arriving meanwhile gets
  // Errc::state instead of racing on the slots' counters. With MPI_THREAD_MULTIPLE the check is off.
  bool single_thread_use = true;
  std::atomic<bool> in_use{false};
  std::unique_ptr<Segment> segment;  // counters, staging, inter-node receive buffers
  std::vector<std::byte> pack_buffer;
  MPI_Comm comm = MPI_COMM_NULL;          // the plan's own communicator (commit, messages path)
  SlotPath inter_path = SlotPath::inter;  // how inter-node slots travel: inter or messages
  // Notified writes need the world's transport served while waiting; the messages path is served
  // by its own MPI_Test calls.
  bool needs_world_progress = false;
  // Polls before a wait yields: the world's peer budget when every slot is a node peer's, else its
  // own (runtime/world.cpp).
  std::uint64_t spin_polls = 1;
  std::vector<std::byte> message_memory;  // buffers of the messages path
  // Persistent requests (posted once) or, past the process's request budget, a send per message
  // and a matched probe on receipt; both put the same messages on the wire.
  bool persistent_requests = false;
  std::size_t reserved_requests = 0;  // returned to the budget when the plan goes
  std::vector<std::int32_t> send_slot_of, receive_slot_of;  // slot -> index into the vectors below
  std::vector<SendSlot> sends;
  std::vector<ReceiveSlot> receives;
  std::vector<std::vector<std::int32_t>> sends_of_channel, receives_of_channel;
  std::vector<std::int32_t> all_sends, all_receives;
  std::vector<std::int32_t> pending;  // scratch for finish()
  std::vector<std::int32_t> pending_pushes;  // send slots whose push waits for the receiver (push_path.cpp)

  std::size_t slot(std::size_t channel, int neighbour_rank, const char* call) const;
  std::string slot_name(std::size_t channel, int rank) const;
};

void commit_plan(PlanState& plan);

// The pushed path (node peers, the sender writes into the receiver's ghost cells), in push_path.cpp.
void post_push(PlanState& plan, SendSlot& slot);
// Every wait of the world serves the plan's pending pushes from commit (if it has pushed slots)
// until the plan goes.
void owe_pushes_to_world(PlanState& plan);
void forget_pushes(PlanState& plan);
void progress_pushes(PlanState& plan);
void signal_ghosts_free(ReceiveSlot& slot);
bool try_receive_push(PlanState& plan, ReceiveSlot& slot);
std::string describe_push_wait(const PlanState& plan, const SendSlot& slot);

// The messages path (two-sided transport), in message_path.cpp.
void post_message(PlanState& plan, SendSlot& slot, bool wants_acknowledgement);
// The caller hands the ghost cells of `slot` over (it asks for the next message): if no receive of
// it is posted, one into the ghost cells is started.
void hand_over_ghosts(PlanState& plan, ReceiveSlot& slot);
bool message_acknowledged(PlanState& plan, SendSlot& slot);
bool message_buffer_free(PlanState& plan, SendSlot& slot, std::uint32_t sequence);
// by_exchange: received by exchange()/finish(), which hand the ghost cells over at their start.
bool try_receive_message(PlanState& plan, ReceiveSlot& slot, bool by_exchange);
void release_messages(PlanState& plan);
// Takes `count` persistent requests from the process-wide budget; false (nothing taken) if short.
bool reserve_persistent_requests(std::size_t count);
void return_persistent_requests(std::size_t count);

}  // namespace ghostwire::detail
