// SPDX-License-Identifier: BSD-3-Clause
// What the paths that travel as MPI messages share: the trailer after a message's data, the tag
// limit, whether the plan's slots travel as messages at all (GHOSTWIRE_TRANSPORT and the tags), the
// process-wide budget of persistent requests, and dropping messages nobody will receive.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace ghostwire::detail {

struct PlanState;

// After the data of every message.
struct MessageTrailer {
  std::uint32_t sequence;
  std::uint32_t wants_acknowledgement;
};
inline constexpr int message_tags_per_slot = 3;  // data of even and odd messages, acknowledgement

// The highest message tag a plan may use: MPI_TAG_UB of its communicator, or
// Settings::message_tag_limit (GHOSTWIRE_TAG_LIMIT) if lower; `name` says which, for describe().
struct TagLimit {
  long value;
  std::string name;
};
TagLimit message_tag_limit(const PlanState& p);

// How the plan's slots between nodes travel, the same on every rank: as messages with the default
// transport, unless the largest plan's tags (message_tags_per_slot per slot) would pass the tag
// limit; `reason` says why, for describe(). `largest_slot_count`: the largest of any rank.
struct InterNodeTransport {
  bool messages = true;
  std::string reason;
};
InterNodeTransport inter_node_transport(const PlanState& p, std::size_t largest_slot_count);

// Takes `count` persistent requests from the process-wide budget; false (nothing taken) if short.
bool reserve_persistent_requests(std::size_t count);
void return_persistent_requests(std::size_t count);
// Takes every message waiting on `comm` that no posted receive matches and drops it, so that its
// send completes (a plan being destroyed receives nothing more).
void drop_unreceived_messages(MPI_Comm comm);

}  // namespace ghostwire::detail
