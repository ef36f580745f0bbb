// SPDX-License-Identifier: BSD-3-Clause
// Partitions combined into one message (combined_partitions.hpp). The sending side counts readied
// partitions under a short lock; the thread that readies the last one posts the message as an
// exchange posts it (its data packed at once, so every partition's data is free again as soon as it
// has gone). The receiving side takes the next message only once every partition has reported the
// last one and its thread has asked again (is done with it), so no ghost cells are overwritten while
// a thread still reads them.
#include "halo/combined_partitions.hpp"

#include <algorithm>
#include <string>

#include "ghostwire/error.hpp"
#include "halo/commit/slot_pieces.hpp"
#include "halo/exchange.hpp"
#include "halo/commit/slot_parts.hpp"
#include "halo/path_dispatch.hpp"
#include "runtime/threads.hpp"
#include "runtime/wait.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {
namespace {

// Partitions smaller than this travel combined by default, where no machine of the job has more
// threads than cores (the same answer on every rank, as both ends of a message must agree);
// combining couples the partitions' threads (the last to ready one sends for all), which costs a
// time slice per message when they must share cores (docs/BENCHMARKS.md, "Partitioned messages").
constexpr std::uint64_t combine_below = 128 * 1024;
// ... and where threads share cores, from this many partitions on: then a message per partition
// costs more than the time slice.
constexpr std::size_t combine_oversubscribed_from = 8;

class SpinLock {
 public:
  // Held for a few loads and stores, or one post: spins, then yields (threads may outnumber cores).
  explicit SpinLock(std::atomic<bool>& lock) : lock_(lock) {
    for (int spins = 0; lock_.exchange(true, std::memory_order_acquire); ++spins) {
      if (spins < 64)
        cpu_relax();
      else
        sched_yield();
    }
  }
  ~SpinLock() { lock_.store(false, std::memory_order_release); }
  SpinLock(const SpinLock&) = delete;
  SpinLock& operator=(const SpinLock&) = delete;

 private:
  std::atomic<bool>& lock_;
};

// A partition call in progress: counted, and refused while a call on the whole slot holds it.
class PartitionCall {
 public:
  template <class Slot>
  PartitionCall(std::atomic<int>& calls, const SlotUse& use, const PlanState& p, const Slot& slot, const char* call)
      : calls_(calls) {
    calls_.fetch_add(1, std::memory_order_seq_cst);
    if (use.holder.load(std::memory_order_seq_cst) != 0) {
      calls_.fetch_sub(1, std::memory_order_release);
      raise(Errc::state, std::string(call) + ": " + p.slot_name(slot.channel, slot.rank) + " of plan " +
                             std::to_string(p.id) + " is in a call on the whole (channel, neighbour) on another "
                             "thread (send, test_recv, exchange ...); partitions and the whole slot are driven one "
                             "way at a time");
    }
  }
  ~PartitionCall() { calls_.fetch_sub(1, std::memory_order_release); }
  PartitionCall(const PartitionCall&) = delete;
  PartitionCall& operator=(const PartitionCall&) = delete;

 private:
  std::atomic<int>& calls_;
};

void check_partition(const PlanState& p, std::size_t partition, std::uint32_t partitions, std::size_t channel,
                     int rank, const char* direction, const char* call) {
  if (partition >= partitions)
    raise(Errc::out_of_range, std::string(call) + ": partition " + std::to_string(partition) + " is not in [0, " +
                                  std::to_string(partitions) + ") of the " + direction + " on " +
                                  p.slot_name(channel, rank) + " of plan " + std::to_string(p.id));
}

template <class Slot>
void enter_mpi(PlanState& p, MpiEntry& mpi, const Slot& slot, const char* call) {
  if (!mpi.enter(*p.w))
    mpi.refuse(std::string(call) + ": " + p.slot_name(slot.channel, slot.rank) + " of plan " + std::to_string(p.id) +
               " travels between nodes");
}

// The last partition is ready: the whole message goes, from this thread.
void post_combined(PlanState& p, SendSlot& slot, const char* call) {
  MpiEntry mpi;
  enter_mpi(p, mpi, slot, call);
  wait_until(
      *p.w, [&] { return ready_for_next(p, slot); }, [&] { return describe_wait(p, slot); }, p.spin_polls);
  post(p, slot, Post::by_exchange);
  slot.deferred = defers_after_exchange(slot);
}

}  // namespace

bool combine_partitions(const PlanState& p, std::size_t slot, std::uint64_t bytes, std::size_t partitions) {
  if (partitions < 2 || !slot_between_nodes(p, slot)) return false;
  switch (p.w->settings.partition_messages) {
    case PartitionMessages::separate: return false;
    case PartitionMessages::combined: return true;
    case PartitionMessages::automatic: break;
  }
  return bytes / partitions < combine_below && (!p.w->some_machine_oversubscribed || partitions >= combine_oversubscribed_from);
}

void make_combined_partitions(PlanState& p) {
  for (std::size_t n = 0; n < p.neighbours.size(); ++n)
    for (std::size_t c = 0; c < p.user_channels; ++c) {
      const std::size_t user = n * p.user_channels + c;
      const std::size_t slot = n * p.channels + (p.partition_base.empty() ? c : p.partition_base[c]);
      if (p.send_combined[user] && p.send_slot_of[slot] >= 0) {
        p.sends[static_cast<std::size_t>(p.send_slot_of[slot])].combined = static_cast<std::int32_t>(p.combined_sends.size());
        p.combined_sends.push_back(std::make_unique<CombinedSend>(p.send_partition_count[user]));
      }
      if (p.receive_combined[user] && p.receive_slot_of[slot] >= 0) {
        p.receives[static_cast<std::size_t>(p.receive_slot_of[slot])].combined =
            static_cast<std::int32_t>(p.combined_receives.size());
        p.combined_receives.push_back(std::make_unique<CombinedReceive>(p.receive_partition_count[user]));
      }
    }
}

void ready_combined(PlanState& p, SendSlot& slot, std::size_t partition, const char* call) {
  CombinedSend& state = *p.combined_sends[static_cast<std::size_t>(slot.combined)];
  const std::size_t index = static_cast<std::size_t>(&slot - p.sends.data());
  check_partition(p, partition, state.partitions, slot.channel, slot.rank, "send", call);
  const PartitionCall counted(state.partition_calls, p.send_use[index], p, slot, call);
  const SpinLock locked(state.lock);
  if (state.readied[partition])
    raise(Errc::state, std::string(call) + ": partition " + std::to_string(partition) + " of the send on " +
                           p.slot_name(slot.channel, slot.rank) +
                           " of plan " + std::to_string(p.id) + " is ready already; its message goes when every "
                           "partition is (wait_send for the partition before readying it again)");
  state.readied[partition] = 1;
  if (++state.ready < state.partitions) return;
  post_combined(p, slot, call);
  state.ready = 0;
  std::fill(state.readied.begin(), state.readied.end(), char{0});
}

bool combined_sent(PlanState& p, SendSlot& slot, std::size_t partition, const char* call) {
  CombinedSend& state = *p.combined_sends[static_cast<std::size_t>(slot.combined)];
  check_partition(p, partition, state.partitions, slot.channel, slot.rank, "send", call);
  const SpinLock locked(state.lock);
  return !state.readied[partition];  // readied data is packed when the message goes
}

void wait_combined_sent(PlanState& p, SendSlot& slot, std::size_t partition, const char* call) {
  wait_until(
      *p.w, [&] { return combined_sent(p, slot, partition, call); },
      [&] {
        return "partition " + std::to_string(partition) + " of the send on " + p.slot_name(slot.channel, slot.rank) +
               " of plan " + std::to_string(p.id) +
               " to go (its partitions travel combined, when every one of them is ready)";
      },
      p.spin_polls);
}

bool arrived_combined(PlanState& p, ReceiveSlot& slot, std::size_t partition, const char* call) {
  CombinedReceive& state = *p.combined_receives[static_cast<std::size_t>(slot.combined)];
  const std::size_t index = static_cast<std::size_t>(&slot - p.receives.data());
  check_partition(p, partition, static_cast<std::uint32_t>(state.taken.size()), slot.channel, slot.rank, "receive",
                  call);
  const PartitionCall counted(state.partition_calls, p.receive_use[index], p, slot, call);
  const SpinLock locked(state.lock);
  thread_local const char this_thread = 0;
  auto report = [&] {
    state.taken[partition] = slot.sequence;
    state.taker[partition] = &this_thread;
    return true;
  };
  if (state.taken[partition] != slot.sequence) return report();  // a message it has not reported yet
  // Asking again: this thread is done with the ghost cells of every partition it took of this message.
  for (std::size_t k = 0; k < state.done.size(); ++k)
    if (state.taken[k] == slot.sequence && (k == partition || state.taker[k] == &this_thread)) state.done[k] = 1;
  // The next message overwrites every partition's ghost cells: only once every partition is done
  // with this one (and has reported it).
  if (std::any_of(state.done.begin(), state.done.end(), [](char d) { return d == 0; })) return false;
  MpiEntry mpi;
  enter_mpi(p, mpi, slot, call);
  prepare_receive(p, slot, Scope::partition, call);
  if (!test_receive(p, slot, Receipt::copy, Scope::partition)) return false;
  std::fill(state.done.begin(), state.done.end(), char{0});
  return report();
}

void refuse_if_partition_calls(const PlanState& p, std::int32_t combined, bool sending, const char* call) {
  const std::atomic<int>& calls = sending ? p.combined_sends[static_cast<std::size_t>(combined)]->partition_calls
                                          : p.combined_receives[static_cast<std::size_t>(combined)]->partition_calls;
  if (calls.load(std::memory_order_seq_cst) != 0)
    raise(Errc::state, std::string(call) + ": partition calls (pready, parrived) on this (channel, neighbour) are "
                           "under way on other threads; partitions and the whole slot are driven one way at a time");
}

}  // namespace ghostwire::detail
