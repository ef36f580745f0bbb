// SPDX-License-Identifier: BSD-3-Clause
// The calls of a committed plan (exchange.hpp), the same for every path.
#include "halo/exchange.hpp"

#include "ghostwire/error.hpp"
#include "halo/path_dispatch.hpp"
#include "runtime/wait.hpp"

namespace ghostwire::detail {
void require_committed(const PlanState& p, const char* call) {
  if (!p.committed)
    raise(Errc::state, std::string(call) + ": plan " + std::to_string(p.id) + " is not committed; call commit() first");
}

SendSlot& send_slot(PlanState& p, std::size_t channel, int rank, const char* call) {
  require_committed(p, call);
  const std::int32_t index = p.send_slot_of[p.slot(channel, rank, call)];
  if (index < 0)
    raise(Errc::state, std::string(call) + ": " + p.slot_name(channel, rank) + " has no send layout in plan " +
                           std::to_string(p.id));
  return p.sends[static_cast<std::size_t>(index)];
}

ReceiveSlot& receive_slot(PlanState& p, std::size_t channel, int rank, const char* call) {
  require_committed(p, call);
  const std::int32_t index = p.receive_slot_of[p.slot(channel, rank, call)];
  if (index < 0)
    raise(Errc::state, std::string(call) + ": " + p.slot_name(channel, rank) + " has no receive layout in plan " +
                           std::to_string(p.id));
  return p.receives[static_cast<std::size_t>(index)];
}

namespace {

template <class Slot, class Visit>
void for_each_part(std::vector<Slot>& slots, Slot& first, Visit&& visit) {
  for (Slot* part = &first;; part = &slots[static_cast<std::size_t>(part->next_part)]) {
    visit(*part);
    if (part->next_part < 0) return;
  }
}

void wait_acknowledged(PlanState& p, SendSlot& part) {
  wait_until(
      *p.w, [&] { progress_pushes(p); return acknowledged(p, part); }, [&] { return describe_wait(p, part); },
      p.spin_polls);
}

// The last message every part has received: the parts of a split message advance together, so one
// part is at most one message ahead of the other.
std::uint32_t whole_sequence(const PlanState& p, const ReceiveSlot& first) {
  if (first.next_part < 0) return first.sequence;
  const std::uint32_t other = p.receives[static_cast<std::size_t>(first.next_part)].sequence;
  return other == first.sequence || next_sequence(first.sequence) == other ? first.sequence : other;
}

}  // namespace

void send(PlanState& p, SendSlot& slot, const char* call) {
  progress_pushes(p);
  for_each_part(p.sends, slot, [&](SendSlot& part) {
    if (part.deferred) wait_acknowledged(p, part);
  });
  for_each_part(p.sends, slot, [&](SendSlot& part) {
    if (!acknowledged(p, part))
      raise(Errc::state, std::string(call) + ": " + p.slot_name(part.channel, part.rank) + " of plan " +
                             std::to_string(p.id) + ": message " + std::to_string(part.sequence) + " " +
                             not_acknowledged_hint(part));
  });
  for_each_part(p.sends, slot, [&](SendSlot& part) {
    post(p, part, Post::by_send);
    part.deferred = false;
  });
}

bool test_send(PlanState& p, SendSlot& slot) {
  progress_pushes(p);
  bool all = true;
  for_each_part(p.sends, slot, [&](SendSlot& part) { all = acknowledged(p, part) && all; });
  return all;
}

void wait_send(PlanState& p, SendSlot& slot) {
  for_each_part(p.sends, slot, [&](SendSlot& part) { wait_acknowledged(p, part); });
}

void prepare_receive(PlanState& p, ReceiveSlot& slot) {
  for_each_part(p.receives, slot, [&](ReceiveSlot& part) { hand_over(p, part); });
  progress_pushes(p);
}

bool test_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) {
  if (slot.next_part < 0) return try_receive(p, slot, receipt);
  const std::uint32_t whole = whole_sequence(p, slot);
  bool all = true;
  for_each_part(p.receives, slot, [&](ReceiveSlot& part) {
    if (part.sequence == whole) all = try_receive(p, part, Receipt::copy) && all;
  });
  return all;
}

void wait_receive(PlanState& p, ReceiveSlot& slot) {
  wait_until(
      *p.w, [&] { progress_pushes(p); return test_receive(p, slot, Receipt::copy); },
      [&] { return describe_wait(p, slot); }, p.spin_polls);
}

void acknowledge_parts(PlanState& p, ReceiveSlot& slot) {
  for_each_part(p.receives, slot, [&](ReceiveSlot& part) { acknowledge(p, part); });
}

void start_sends(PlanState& p, const std::vector<std::int32_t>& sends, const std::vector<std::int32_t>& receives) {
  // The ghost cells are free from here on (finish() gives them back filled): say so first, so node
  // peers that push can write into them while this rank posts its own messages.
  for (std::int32_t index : receives) hand_over(p, p.receives[static_cast<std::size_t>(index)]);
  for (std::int32_t index : sends) {
    SendSlot& slot = p.sends[static_cast<std::size_t>(index)];
    wait_until(
        *p.w, [&] { progress_pushes(p); return ready_for_next(p, slot); }, [&] { return describe_wait(p, slot); },
        p.spin_polls);
    post(p, slot, Post::by_exchange);  // pushed: written now if the receiver is ready, else later
    slot.deferred = defers_after_exchange(slot);
  }
}

void finish_exchange(PlanState& p, const std::vector<std::int32_t>& receives, const std::vector<std::int32_t>& sends) {
  p.pending.assign(receives.begin(), receives.end());
  Waiter waiter(*p.w, p.spin_polls);
  while (!p.pending.empty()) {
    progress_pushes(p);  // a peer may be waiting for them before it can finish its own pushes
    std::size_t kept = 0;
    for (std::int32_t index : p.pending)
      if (!try_receive(p, p.receives[static_cast<std::size_t>(index)], Receipt::exchange)) p.pending[kept++] = index;
    const bool progressed = kept < p.pending.size();
    p.pending.resize(kept);
    if (!progressed && kept) {
      if (p.needs_world_progress) p.w->progress();
      waiter.pause([&] { return describe_wait(p, p.receives[static_cast<std::size_t>(p.pending.front())]); });
    }
  }
  // What each path needs before the application may change the sent data again: node peers that
  // read it in place have read it, pushes are written, messages are complete locally (a large
  // message only moves while its sender keeps calling MPI).
  for (std::int32_t index : sends) {
    SendSlot& slot = p.sends[static_cast<std::size_t>(index)];
    wait_until(
        *p.w, [&] { progress_pushes(p); return exchange_done(p, slot); }, [&] { return describe_wait(p, slot); },
        p.spin_polls);
  }
}

}  // namespace ghostwire::detail
