// What a Plan holds: the user's description (regions, pieces per slot) and, after commit, one
// compact record per slot in use with precompiled copy programs and the counters it talks through.
#pragma once

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
  Segment* segment = nullptr;  // null: private memory
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
  intra,   // receiver copies from the sender's live data
  staged,  // sender packs into shared staging, receiver copies from there
  inter,   // pack, notified write into the receiver's double buffer
};
const char* path_name(SlotPath path);

// Message sequence numbers run 1, 2, ... and skip 0, which means "nothing yet".
inline std::uint32_t next_sequence(std::uint32_t sequence) { return sequence == 0xFFFFFFFFu ? 1u : sequence + 1; }

struct SendSlot {
  std::size_t channel = 0;
  int rank = -1;
  SlotPath path = SlotPath::intra;
  std::size_t bytes = 0;
  std::uint32_t sequence = 0;       // last message sent
  std::uint32_t acknowledged = 0;   // inter: last acknowledgement seen
  // The last message came from exchange()/start(), which does not wait for acknowledgements of
  // packed data; a later send() waits for it instead of reporting misuse.
  bool deferred = false;
  // intra / staged
  std::uint32_t* remote_posted = nullptr;    // receiver's counter for this slot
  const std::uint32_t* local_acked = nullptr;  // written by the receiver
  CopyProgram pack;                           // staged: into staging; inter: into the pack buffer
  // inter
  std::size_t remote_offset[2] = {0, 0};
  NotificationId remote_data_id[2] = {0, 0};
  NotificationId ack_id = 0;  // my notification the receiver sets
};

struct ReceiveSlot {
  std::size_t channel = 0;
  int rank = -1;
  SlotPath path = SlotPath::intra;
  std::size_t bytes = 0;
  std::uint32_t sequence = 0;  // last message received
  // intra / staged
  const std::uint32_t* local_posted = nullptr;  // written by the sender
  std::uint32_t* remote_acked = nullptr;        // sender's counter for this slot
  CopyProgram copy;
  // inter
  CopyProgram unpack[2];
  NotificationId data_id[2] = {0, 0};
  NotificationId remote_ack_id = 0;
};

struct PlanState {
  World* world = nullptr;
  WorldState* w = nullptr;
  int id = 0;
  std::vector<int> neighbours;
  std::vector<int> neighbour_index;  // by rank, -1 if not a neighbour
  std::size_t channels = 1;
  std::vector<RegionSpec> regions;
  std::vector<std::vector<PieceSpec>> send_pieces, receive_pieces;  // by slot = n * channels + c

  bool committed = false;
  std::unique_ptr<Segment> segment;  // counters, staging, inter-node receive buffers
  std::vector<std::byte> pack_buffer;
  std::vector<std::int32_t> send_slot_of, receive_slot_of;  // slot -> index into the vectors below
  std::vector<SendSlot> sends;
  std::vector<ReceiveSlot> receives;
  std::vector<std::vector<std::int32_t>> sends_of_channel, receives_of_channel;
  std::vector<std::int32_t> all_sends, all_receives;
  std::vector<std::int32_t> pending;  // scratch for finish()

  std::size_t slot(std::size_t channel, int neighbour_rank, const char* call) const;
  std::string slot_name(std::size_t channel, int rank) const;
};

void commit_plan(PlanState& plan);

}  // namespace ghostwire::detail
