// SPDX-License-Identifier: BSD-3-Clause
// The steps of the slot calls a plan and its slot ends share (Plan::try_send and SendEnd::try_send
// run the same step on the slot at `index` in p.sends or p.receives): each claims the slot for its
// length (slot_call.hpp), but the prefetch hints, which change nothing and take no claim (a claim's
// compare-and-swap would first wait for this thread's stores to other cores to complete).
#pragma once

#include <cstddef>
#include <cstdint>

#include "halo/plan_state.hpp"

namespace ghostwire::detail {

void send_step(PlanState& p, std::int32_t index, const char* call);
bool try_send_step(PlanState& p, std::int32_t index, const char* call);
bool test_send_step(PlanState& p, std::int32_t index, const char* call);
void wait_send_step(PlanState& p, std::int32_t index, const char* call);
void prefetch_send_step(PlanState& p, std::int32_t index, std::size_t bytes);
void prefetch_receive_step(PlanState& p, std::int32_t index, std::size_t bytes);
void read_in_place_step(PlanState& p, std::int32_t index, void (*use)(void*, const std::byte*), void* context,
                        const char* call);

// The slot of a receive in place, after checking that its last message was released.
ReceiveSlot& in_place_slot(PlanState& p, std::int32_t index, const char* call);
// Acknowledges a message read in place, once.
void release_if_held(PlanState& p, ReceiveSlot& slot);

}  // namespace ghostwire::detail
