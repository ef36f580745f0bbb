// SPDX-License-Identifier: BSD-3-Clause
// The calls of a committed plan (exchange.hpp), the same for every path.
#include "halo/exchange.hpp"

#include "ghostwire/error.hpp"
#include "halo/combined_state.hpp"
#include "halo/path_dispatch.hpp"
#include "halo/sequence.hpp"
#include "runtime/wait.hpp"

namespace ghostwire::detail {
void require_committed(const PlanState& p, const char* call) {
  if (!p.committed)
    raise(Errc::state, std::string(call) + ": plan " + std::to_string(p.id) + " is not committed; call commit() first");
}

namespace {

std::int32_t first_part(const PlanState& p, const std::vector<std::int32_t>& slot_of, std::size_t slot,
                        std::size_t channel, int rank, const char* direction, const char* call) {
  const std::int32_t index = slot_of[slot];
  if (index < 0)
    raise(Errc::state, std::string(call) + ": channel " + std::to_string(channel) + " with rank " +
                           std::to_string(rank) + " has no " + direction + " layout in plan " + std::to_string(p.id));
  return index;
}

std::int32_t partition_index(PlanState& p, const std::vector<std::int32_t>& slot_of, bool sending,
                             std::size_t channel, int rank, std::size_t partition, const char* call) {
  const std::size_t first = p.user_slot(channel, rank, call), count = p.partitions(sending, channel, rank);
  const char* direction = sending ? "send" : "receive";
  if (partition >= count)
    raise(Errc::out_of_range, std::string(call) + ": partition " + std::to_string(partition) + " is not in [0, " +
                                  std::to_string(count) + ") of the " + direction + " on channel " +
                                  std::to_string(channel) + " with rank " + std::to_string(rank) + " of plan " +
                                  std::to_string(p.id));
  return first_part(p, slot_of, first + partition, channel, rank, direction, call);
}

}  // namespace

std::int32_t send_index(PlanState& p, std::size_t channel, int rank, const char* call) {
  require_committed(p, call);
  return first_part(p, p.send_slot_of, p.user_slot(channel, rank, call), channel, rank, "send", call);
}

std::int32_t receive_index(PlanState& p, std::size_t channel, int rank, const char* call) {
  require_committed(p, call);
  return first_part(p, p.receive_slot_of, p.user_slot(channel, rank, call), channel, rank, "receive",
                                 call);
}

std::int32_t send_partition_index(PlanState& p, std::size_t channel, int rank, std::size_t partition,
                                  const char* call) {
  require_committed(p, call);
  return partition_index(p, p.send_slot_of, true, channel, rank, partition, call);
}

std::int32_t receive_partition_index(PlanState& p, std::size_t channel, int rank, std::size_t partition,
                                     const char* call) {
  require_committed(p, call);
  return partition_index(p, p.receive_slot_of, false, channel, rank, partition, call);
}

namespace {

template <class Slot, class Visit>
void for_each_part(std::vector<Slot>& slots, Slot& first, Scope scope, Visit&& visit) {
  for (Slot* part = &first;; part = &slots[static_cast<std::size_t>(part->next_part)]) {
    visit(*part);
    if (part->next_part < 0) return;
    if (scope == Scope::partition && slots[static_cast<std::size_t>(part->next_part)].partition != first.partition)
      return;
  }
}

void wait_acknowledged(PlanState& p, SendSlot& part) {
  wait_until(
      *p.w, [&] { progress_paths(p); return acknowledged(p, part); }, [&] { return describe_wait(p, part); },
      p.spin_polls);
}

// The last message every part has received: the parts of a split or partitioned message advance
// together, so a part is at most one message ahead of the others.
std::uint32_t whole_sequence(PlanState& p, ReceiveSlot& first, Scope scope) {
  std::uint32_t behind = first.sequence;
  for_each_part(p.receives, first, scope, [&](const ReceiveSlot& part) {
    if (next_sequence(part.sequence) == behind) behind = part.sequence;
  });
  return behind;
}

// Posts every part (send() and post_acknowledged() have checked that they may go).
void post_parts(PlanState& p, SendSlot& slot, Scope scope, Post how) {
  for_each_part(p.sends, slot, scope, [&](SendSlot& part) {
    post(p, part, how);
    part.deferred = how == Post::by_exchange && defers_after_exchange(part);
  });
}

}  // namespace

void send(PlanState& p, SendSlot& slot, const char* call, Scope scope, Post how) {
  refuse_if_readied(p, slot, call);  // before the acknowledgement checks: the misuse named first
  progress_paths(p);
  for_each_part(p.sends, slot, scope, [&](SendSlot& part) {
    if (part.deferred) wait_acknowledged(p, part);
  });
  for_each_part(p.sends, slot, scope, [&](SendSlot& part) {
    if (!acknowledged(p, part))
      raise(Errc::state, std::string(call) + ": " + p.slot_name(part.channel, part.rank) + " of plan " +
                             std::to_string(p.id) + ": message " + std::to_string(part.sequence) + " " +
                             not_acknowledged_hint(part));
  });
  post_parts(p, slot, scope, how);
}

void post_acknowledged(PlanState& p, SendSlot& slot, const char* call, Scope scope, Post how) {
  refuse_if_readied(p, slot, call);
  post_parts(p, slot, scope, how);
}

bool test_send(PlanState& p, SendSlot& slot, Scope scope) {
  progress_paths(p);
  bool all = true;
  for_each_part(p.sends, slot, scope, [&](SendSlot& part) { all = acknowledged(p, part) && all; });
  return all;
}

void wait_send(PlanState& p, SendSlot& slot, Scope scope) {
  for_each_part(p.sends, slot, scope, [&](SendSlot& part) { wait_acknowledged(p, part); });
}

void prepare_receive(PlanState& p, ReceiveSlot& slot, Scope scope, const char* call) {
  for_each_part(p.receives, slot, scope, [&](ReceiveSlot& part) {
    if (part.in_exchange)
      raise(Errc::state, std::string(call) + ": " + p.slot_name(part.channel, part.rank) + " of plan " +
                             std::to_string(p.id) + ": its message belongs to the exchange start() began; finish() "
                             "receives it (call finish() first)");
  });
  for_each_part(p.receives, slot, scope, [&](ReceiveSlot& part) { hand_over(p, part); });
  progress_paths(p);
}

bool test_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt, Scope scope) {
  const bool one_part = slot.next_part < 0 ||
                        (scope == Scope::partition && p.receives[static_cast<std::size_t>(slot.next_part)].partition !=
                                                          slot.partition);
  if (one_part) return try_receive(p, slot, receipt);
  const std::uint32_t whole = whole_sequence(p, slot, scope);
  bool all = true;
  for_each_part(p.receives, slot, scope, [&](ReceiveSlot& part) {
    if (part.sequence == whole) all = try_receive(p, part, Receipt::copy) && all;
  });
  return all;
}

void wait_receive(PlanState& p, ReceiveSlot& slot, Scope scope, Receipt receipt) {
  wait_until(
      *p.w, [&] { progress_paths(p); return test_receive(p, slot, receipt, scope); },
      [&] { return describe_wait(p, slot); }, p.spin_polls);
  if (scope == Scope::whole) note_whole_receipt(p, slot);
}

void acknowledge_parts(PlanState& p, ReceiveSlot& slot) {
  for_each_part(p.receives, slot, Scope::whole, [&](ReceiveSlot& part) { acknowledge(p, part); });
}

void start_sends(PlanState& p, const std::vector<std::int32_t>& sends, const std::vector<std::int32_t>& receives) {
  // The ghost cells are free from here on (finish() gives them back filled): say so first, so node
  // peers that push can write into them while this rank posts its own messages.
  for (std::int32_t index : receives) {
    ReceiveSlot& slot = p.receives[static_cast<std::size_t>(index)];
    hand_over(p, slot);
    slot.in_exchange = true;
  }
  for (std::int32_t index : sends) {
    SendSlot& slot = p.sends[static_cast<std::size_t>(index)];
    wait_until(
        *p.w, [&] { progress_paths(p); return ready_for_next(p, slot); }, [&] { return describe_wait(p, slot); },
        p.spin_polls);
    post(p, slot, Post::by_exchange);  // pushed: written now if the receiver is ready, else later
    slot.deferred = defers_after_exchange(slot);
  }
}

// The exchange's message of `slot`, if it has arrived: received into the ghost cells, the slot no
// longer the exchange's.
static bool take_exchange_message(PlanState& p, ReceiveSlot& slot) {
  if (!try_receive(p, slot, Receipt::exchange)) return false;
  slot.in_exchange = false;
  note_whole_receipt(p, slot);
  return true;
}

void finish_exchange(PlanState& p, const std::vector<std::int32_t>& receives, const std::vector<std::int32_t>& sends,
                     std::vector<std::int32_t>& pending) {
  // Only the receives still in the exchange: an earlier test_finish may have taken some, and a
  // finish with none (a second finish, as MPI_Wait on an inactive request) returns at once.
  pending.clear();
  for (std::int32_t index : receives)
    if (p.receives[static_cast<std::size_t>(index)].in_exchange) pending.push_back(index);
  Waiter waiter(*p.w, p.spin_polls);
  while (!pending.empty()) {
    progress_paths(p);  // a peer may be waiting for them before it can finish its own pushes
    std::size_t kept = 0;
    for (std::int32_t index : pending) {
      if (!take_exchange_message(p, p.receives[static_cast<std::size_t>(index)])) pending[kept++] = index;
    }
    const bool progressed = kept < pending.size();
    pending.resize(kept);
    if (!progressed && kept) {
      if (p.needs_world_progress) p.w->progress();
      waiter.pause([&] { return describe_wait(p, p.receives[static_cast<std::size_t>(pending.front())]); });
    }
  }
  // What each path needs before the application may change the sent data again: node peers that
  // read it in place have read it, pushes are written, messages are complete locally (a large
  // message only moves while its sender keeps calling MPI).
  for (std::int32_t index : sends) {
    SendSlot& slot = p.sends[static_cast<std::size_t>(index)];
    wait_until(
        *p.w, [&] { progress_paths(p); return exchange_done(p, slot); }, [&] { return describe_wait(p, slot); },
        p.spin_polls);
  }
}

bool test_exchange(PlanState& p, const std::vector<std::int32_t>& receives, const std::vector<std::int32_t>& sends) {
  progress_paths(p);
  bool received = true;
  for (std::int32_t index : receives) {
    ReceiveSlot& slot = p.receives[static_cast<std::size_t>(index)];
    if (slot.in_exchange && !take_exchange_message(p, slot)) received = false;  // else taken by an earlier test
  }
  if (!received) {
    if (p.needs_world_progress) p.w->progress();
    return false;
  }
  for (std::int32_t index : sends)
    if (!exchange_done(p, p.sends[static_cast<std::size_t>(index)])) return false;
  return true;
}

// Both directions of a (channel, neighbour) go to the same thread: with acknowledgement by reply a
// send reads what its reverse receive consumed.
template <class Slot>
bool in_share(const PlanState& p, const Slot& slot, std::size_t thread, std::size_t threads) {
  const std::size_t n = static_cast<std::size_t>(p.neighbour_index[static_cast<std::size_t>(slot.rank)]);
  return (n * p.channels + slot.channel) % threads == thread;
}

void share_of(const PlanState& p, std::size_t thread, std::size_t threads, std::vector<std::int32_t>& sends,
              std::vector<std::int32_t>& receives) {
  sends.clear();
  receives.clear();
  for (std::int32_t index : p.all_sends)
    if (in_share(p, p.sends[static_cast<std::size_t>(index)], thread, threads)) sends.push_back(index);
  for (std::int32_t index : p.all_receives)
    if (in_share(p, p.receives[static_cast<std::size_t>(index)], thread, threads)) receives.push_back(index);
}

}  // namespace ghostwire::detail
