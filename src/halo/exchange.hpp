// SPDX-License-Identifier: BSD-3-Clause
// The calls of a committed plan, slot by slot and for all slots (start, finish), written once for
// every path: what differs by path goes through path_dispatch.hpp. docs/plans.md, "Operations".
#pragma once

#include <cstdint>
#include <vector>

#include "halo/plan_state.hpp"

namespace ghostwire::detail {

void require_committed(const PlanState& p, const char* call);
SendSlot& send_slot(PlanState& p, std::size_t channel, int rank, const char* call);
ReceiveSlot& receive_slot(PlanState& p, std::size_t channel, int rank, const char* call);

// The calls of one (channel, neighbour): `slot` is its first part (slot.hpp, next_part), and each
// call takes every part of a split message.
void send(PlanState& p, SendSlot& slot, const char* call);
bool test_send(PlanState& p, SendSlot& slot);
void wait_send(PlanState& p, SendSlot& slot);
// The caller asks for the slot's next message: its ghost cells are handed over, and pushes this
// rank owes are written where the receiver is ready, so two ranks that both sent before receiving
// keep each other moving.
void prepare_receive(PlanState& p, ReceiveSlot& slot);
bool test_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt);
void wait_receive(PlanState& p, ReceiveSlot& slot);
void acknowledge_parts(PlanState& p, ReceiveSlot& slot);

// exchange() in two halves over the given slot lists (all, or one channel's).
void start_sends(PlanState& p, const std::vector<std::int32_t>& sends, const std::vector<std::int32_t>& receives);
void finish_exchange(PlanState& p, const std::vector<std::int32_t>& receives, const std::vector<std::int32_t>& sends);

}  // namespace ghostwire::detail
