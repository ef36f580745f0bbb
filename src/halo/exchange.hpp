// SPDX-License-Identifier: BSD-3-Clause
// The calls of a committed plan, slot by slot and for all slots (start, finish), written once for
// every path: what differs by path goes through path_dispatch.hpp. docs/plans.md, "Operations".
#pragma once

#include <cstdint>
#include <vector>

#include "halo/plan_state.hpp"

namespace ghostwire::detail {

void require_committed(const PlanState& p, const char* call);
// The index in p.sends (p.receives) of the first part of the user's (channel, neighbour), or of one
// partition of it; Errc::state if the slot has no send (receive) layout, Errc::out_of_range for a
// channel, rank or partition not in the plan.
std::int32_t send_index(PlanState& p, std::size_t channel, int rank, const char* call);
std::int32_t receive_index(PlanState& p, std::size_t channel, int rank, const char* call);
std::int32_t send_partition_index(PlanState& p, std::size_t channel, int rank, std::size_t partition,
                                  const char* call);
std::int32_t receive_partition_index(PlanState& p, std::size_t channel, int rank, std::size_t partition,
                                     const char* call);

// The calls of one (channel, neighbour), `slot` being its first part (slot.hpp, next_part).
// `how`: Post::by_exchange for pready: its data is free once packed, so no acknowledgement message is
// asked for between nodes (as after start()).
void send(PlanState& p, SendSlot& slot, const char* call, Scope scope = Scope::whole, Post how = Post::by_send);
bool test_send(PlanState& p, SendSlot& slot, Scope scope = Scope::whole);
// send() once test_send() said every part is acknowledged: posts without checking again.
void post_acknowledged(PlanState& p, SendSlot& slot, const char* call, Scope scope = Scope::whole,
                       Post how = Post::by_send);
void wait_send(PlanState& p, SendSlot& slot, Scope scope = Scope::whole);
// The caller asks for the slot's next message: its ghost cells are handed over, and pushes this
// rank owes are written where the receiver is ready, so two ranks that both sent before receiving
// keep each other moving.
// Refused while start() has the slot's message (Errc::state naming `call`).
void prepare_receive(PlanState& p, ReceiveSlot& slot, Scope scope, const char* call);
bool test_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt, Scope scope = Scope::whole);
void wait_receive(PlanState& p, ReceiveSlot& slot, Scope scope = Scope::whole, Receipt receipt = Receipt::copy);
void acknowledge_parts(PlanState& p, ReceiveSlot& slot);

// exchange() in two halves over the given slot lists (all, or one channel's).
void start_sends(PlanState& p, const std::vector<std::int32_t>& sends, const std::vector<std::int32_t>& receives);
// `pending` is scratch: the plan's own for the whole plan, a thread's own for its share.
void finish_exchange(PlanState& p, const std::vector<std::int32_t>& receives, const std::vector<std::int32_t>& sends,
                     std::vector<std::int32_t>& pending);
// finish_exchange without waiting: takes what has arrived; true once every receive is in and every
// send done (the exchange is finished), false otherwise (call again, or finish_exchange).
bool test_exchange(PlanState& p, const std::vector<std::int32_t>& receives, const std::vector<std::int32_t>& sends);
// Thread `thread` of `threads`' share of an exchange (Plan::exchange_share): the slots of every
// threads-th (channel, neighbour), both directions, in the order start() and finish() take them.
void share_of(const PlanState& p, std::size_t thread, std::size_t threads, std::vector<std::int32_t>& sends,
              std::vector<std::int32_t>& receives);

}  // namespace ghostwire::detail
