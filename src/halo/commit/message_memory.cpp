// SPDX-License-Identifier: BSD-3-Clause
// Commit's memory phase (message_memory.hpp). Counters and buffers start on their own cache lines.
#include "halo/commit/message_memory.hpp"

#include <algorithm>

#include "halo/commit/slot_pieces.hpp"
#include "halo/node_pairs.hpp"
#include "halo/path_choice.hpp"
#include "runtime/segment_state.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {
namespace {

constexpr std::size_t line = 64;

// The plan segment: counters, then per slot the staging halves (send side) and notified-write
// buffers (receive side). Returns its size.
std::size_t lay_out_segment(const PlanState& p, MessageMemory& memory) {
  const std::size_t slots = p.send_pieces.size();
  memory.staging.assign(slots, {0, 0});
  memory.notified_buffers.assign(slots, {0, 0});
  // The pairs of nodes' combined messages this rank hosts come first (node_pairs.hpp).
  memory.posted = p.pairs ? p.pairs->hosted_bytes : 0;
  memory.acknowledgements = memory.posted + round_up(2 * slots * sizeof(std::uint64_t), line);
  std::size_t offset = memory.acknowledgements + round_up(2 * slots * sizeof(std::uint32_t), line);
  for (std::size_t s = 0; s < slots; ++s) {
    // A pushed slot stages a message when the receiver is not ready for it, so a slot that may be
    // pushed gets staging too (whether it is, the receiver's answer at the descriptor swap decides).
    // A split slot stages its part 1.
    const bool split = !p.send_pieces[s].empty() && split_wanted(p, s);
    if (split || (!p.send_pieces[s].empty() && (send_path(p, s) == SlotPath::staged || push_wanted(p, s)))) {
      const std::size_t bytes =
          round_up(message_bytes(p, split ? split_pieces(p, s).parts[1] : p.send_pieces[s]), line);
      memory.staging[s] = {offset, offset + bytes};
      offset += 2 * bytes;
    }
    if (!p.receive_pieces[s].empty() && slot_between_nodes(p, s) && p.inter_node_path == SlotPath::notified_write) {
      const std::size_t bytes = round_up(message_bytes(p, p.receive_pieces[s]), line);
      memory.notified_buffers[s] = {offset, offset + bytes};
      offset += 2 * bytes;
    }
  }
  return offset;
}

// Two halves per slot and direction, each with its trailer, plus a line for the acknowledgement
// word. Three persistent requests per slot and direction, two more per receive slot for receiving
// in place; an MPI has a finite request table, so plans with very many slots post each message
// on demand instead.
void lay_out_two_sided(PlanState& p, MessageMemory& memory) {
  const std::size_t slots = p.send_pieces.size();
  memory.two_sided_send.assign(slots, 0);
  memory.two_sided_receive.assign(slots, 0);
  std::size_t total = 0, directions = 0, receives = 0;
  for (std::size_t s = 0; s < slots; ++s) {
    if (!p.send_pieces[s].empty() && send_path(p, s) == SlotPath::two_sided) {
      memory.two_sided_send[s] = total;
      total += two_sided_slot_bytes(message_bytes(p, p.send_pieces[s]));
      ++directions;
    }
    if (!p.receive_pieces[s].empty() && slot_between_nodes(p, s) && p.inter_node_path == SlotPath::two_sided) {
      memory.two_sided_receive[s] = total;
      total += two_sided_slot_bytes(message_bytes(p, p.receive_pieces[s]));
      ++directions;
      ++receives;
    }
  }
  p.message_memory.assign(total, std::byte{0});
  const std::size_t requests = 3 * directions + 2 * receives;
  p.persistent_requests = directions != 0 && reserve_persistent_requests(requests);
  if (p.persistent_requests) p.reserved_requests = requests;
}

}  // namespace

MessageMemory lay_out_message_memory(PlanState& p, std::size_t notifications) {
  MessageMemory memory;
  const std::size_t segment_bytes = lay_out_segment(p, memory);
  p.segment = std::make_unique<Segment>(*p.world, segment_bytes, notifications);
  lay_out_two_sided(p, memory);
  return memory;
}

}  // namespace ghostwire::detail
