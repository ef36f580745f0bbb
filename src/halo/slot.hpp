// SPDX-License-Identifier: BSD-3-Clause
// A slot is one (channel, neighbour) direction of a committed plan: the fields every path shares,
// and its path (halo/path.hpp), agreed at commit by both sides and called through that interface
// only. docs/internals/paths.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "halo/path.hpp"

namespace ghostwire::detail {

// What a call on a slot takes: every part of every partition from its first part on (a call on the
// whole (channel, neighbour)), or the parts of one partition only (pready, parrived).
enum class Scope { whole, partition };

struct SendSlot {
  std::size_t channel = 0;  // the plan's own (a partition's, when partitioned)
  int rank = -1;
  std::size_t bytes = 0;
  std::uint32_t sequence = 0;  // last message sent
  // With acknowledge_by_reply: the last acknowledgement that came with a message of the receiver
  // on the reverse direction of this slot (node peers that acknowledge: in place, staged).
  std::uint32_t reply_acknowledged = 0;
  std::int32_t reverse_receive = -1;  // the receive slot of the same (channel, neighbour), if any
  // The last message came from exchange()/start(), which does not wait for acknowledgements of
  // packed data; a later send() waits for it instead of reporting misuse.
  bool deferred = false;
  // A slot whose message is split in two (commit/slot_parts.hpp): its part 1 follows in
  // the plan's list. A partitioned message's partitions are chained after it the same way, each
  // with its parts: calls on the (channel, neighbour) take every part of every partition,
  // Plan::pready those of one partition.
  std::int32_t next_part = -1;
  std::uint8_t part = 0;
  std::uint32_t partition = 0;
  std::int32_t combined = -1;  // its partitions go as one message: PlanState::combined_sends[combined]
  bool crosses_nodes = false;  // type->between_nodes(), kept here: every slot call asks
  const PathType* type = nullptr;
  std::unique_ptr<SendPath> path;
};

struct ReceiveSlot {
  std::size_t channel = 0;
  int rank = -1;
  std::size_t bytes = 0;
  std::uint32_t sequence = 0;  // last message received
  std::uint32_t consumed = 0;  // last message copied out or released (so acknowledged, or to be)
  // Received by test_recv_in_place and not yet released: the sender's data is being read.
  bool held = false;
  // Asked for by start() and not yet received by finish(): the message is the exchange's, and a
  // receive call on the slot meanwhile is refused (it would take the message finish() waits for).
  bool in_exchange = false;
  std::int32_t reverse_send = -1;  // the send slot of the same (channel, neighbour), if any
  std::int32_t next_part = -1;     // as SendSlot's
  std::uint8_t part = 0;
  std::uint32_t partition = 0;
  std::int32_t combined = -1;  // PlanState::combined_receives[combined]
  bool crosses_nodes = false;  // as SendSlot's
  const PathType* type = nullptr;
  std::unique_ptr<ReceivePath> path;
};

}  // namespace ghostwire::detail
