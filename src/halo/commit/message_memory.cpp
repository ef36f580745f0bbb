// SPDX-License-Identifier: BSD-3-Clause
// Commit's memory phase (message_memory.hpp). Counters and each side's memory start on their own
// cache lines.
#include "halo/commit/message_memory.hpp"

#include "halo/path_registry.hpp"
#include "runtime/segment_state.hpp"

namespace ghostwire::detail {
namespace {

constexpr std::size_t line = 64;

template <class Visit>
void for_each_side(SlotChoices& choices, Visit&& visit) {
  for (std::size_t s = 0; s < choices.sends.size(); ++s) {
    if (choices.sends[s])
      for (SideChoice& part : choices.sends[s]->parts) visit(part);
    if (choices.receives[s]) visit(*choices.receives[s]);
  }
}

}  // namespace

MessageMemory lay_out_message_memory(PlanState& p, SlotChoices& choices, std::size_t largest_slot_count) {
  MessageMemory memory;
  const std::size_t slots = p.send_pieces.size();
  memory.posted = 0;
  memory.acknowledgements = round_up(2 * slots * sizeof(std::uint64_t), line);
  std::size_t segment_bytes = memory.acknowledgements + round_up(2 * slots * sizeof(std::uint32_t), line);
  std::size_t private_bytes = 0;
  for_each_side(choices, [&](SideChoice& side) {
    side.segment_offset = segment_bytes;
    segment_bytes += round_up(side.memory.segment_bytes, line);
    side.private_offset = private_bytes;
    private_bytes += round_up(side.memory.private_bytes, line);
  });
  std::size_t notifications = 0;
  for (const PathType* type : registered_paths()) {
    memory.notification_base.push_back(notifications);
    notifications += type->notifications_per_slot() * largest_slot_count;
  }
  p.segment = std::make_unique<Segment>(*p.world, segment_bytes, notifications);
  p.private_memory.assign(private_bytes, std::byte{0});
  return memory;
}

}  // namespace ghostwire::detail
