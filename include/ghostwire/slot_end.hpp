// SPDX-License-Identifier: BSD-3-Clause
// One direction of one (channel, neighbour) of a committed plan, found once (Plan::send_end,
// Plan::receive_end): for a protocol that drives its slots one by one every exchange, the calls
// without finding the slot each time. A plan's slot call resolves the channel and the rank and
// checks the plan before it reaches the slot, a chain of loads that costs about a hundred cycles
// when the plan's lines are no longer in L1; an end holds where its slot is. The calls behave as
// the plan's calls of the same names (threads, misuse, errors) and name themselves in errors.
// An end is valid while its plan exists (a moved plan keeps it valid; a destroyed one does not).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace ghostwire {

namespace detail {
struct PlanState;

// A reader given as any callable, called through a plain function pointer (the library's side).
template <class Use>
void call_reader(void* use, const std::byte* message) {
  (*static_cast<Use*>(use))(message);
}
}  // namespace detail

class SendEnd {
 public:
  SendEnd() = default;  // refers to no slot: every call raises Errc::state
  void send();          // Plan::send(c, n)
  bool try_send();      // Plan::try_send(c, n)
  bool test_send();     // Plan::test_send(c, n)
  void wait_send();     // Plan::wait_send(c, n)
  // Plan::prefetch_send(c, n, bytes): a hint, takes no claim.
  void prefetch(std::size_t bytes = static_cast<std::size_t>(-1)) const;

 private:
  friend class Plan;
  SendEnd(detail::PlanState* plan, std::int32_t index) : plan_(plan), index_(index) {}
  detail::PlanState* plan_ = nullptr;
  std::int32_t index_ = -1;
};

class ReceiveEnd {
 public:
  ReceiveEnd() = default;  // refers to no slot: every call raises Errc::state
  // Plan::read_in_place(c, n, use): waits, calls use(where the message is; null where it was
  // copied into the receive layout), releases it (also when `use` throws).
  template <class Use>
  void read_in_place(Use&& use) {
    read_in_place(&detail::call_reader<std::remove_reference_t<Use>>, &use);
  }
  void read_in_place(void (*use)(void* context, const std::byte* message), void* context);
  // Plan::prefetch_recv(c, n, bytes): a hint, takes no claim.
  void prefetch(std::size_t bytes = static_cast<std::size_t>(-1)) const;

 private:
  friend class Plan;
  ReceiveEnd(detail::PlanState* plan, std::int32_t index) : plan_(plan), index_(index) {}
  detail::PlanState* plan_ = nullptr;
  std::int32_t index_ = -1;
};

}  // namespace ghostwire
