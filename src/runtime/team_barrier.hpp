// SPDX-License-Identifier: BSD-3-Clause
// A barrier for the threads of one rank that share a call (HaloUpdate::run_shared): its waits spin
// briefly, then yield (threads may outnumber cores), and end in the world's timeout diagnostic if a
// thread of the team never arrives. docs/runtime.md, "Threads".
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "runtime/wait.hpp"

namespace ghostwire::detail {

class TeamBarrier {
 public:
  // Returns once `threads` threads have arrived (all must pass the same count).
  void arrive_and_wait(WorldState& w, std::size_t threads, const char* what) {
    const std::uint64_t generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads) {
      arrived_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);  // after the reset: the next round starts clean
      return;
    }
    Waiter waiter(w, w.peer_spin_polls);
    while (generation_.load(std::memory_order_acquire) == generation)
      waiter.pause([&] {
        return std::string(what) + ": the other threads of this rank's team (" +
               std::to_string(arrived_.load(std::memory_order_relaxed)) + " of " + std::to_string(threads) +
               " have arrived; every thread of the team must make the call, each with its own thread index)";
      });
  }

 private:
  std::atomic<std::size_t> arrived_{0};
  std::atomic<std::uint64_t> generation_{0};
};

}  // namespace ghostwire::detail
