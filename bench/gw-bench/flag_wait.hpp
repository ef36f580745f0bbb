// SPDX-License-Identifier: BSD-3-Clause
// Waiting for a flag the peer writes into my memory (raw, mpi-put-flag). The flag changes once per
// message; we wait for it to change, then check it carries the expected stamp, so a wrong value
// fails at once instead of after the timeout.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

#include "message_stamp.hpp"
#include "spin_wait.hpp"

namespace gwbench {

// `poll_progress()` runs between polls (mpi-put-flag drives MPI's progress engine there).
template <class PollProgress>
void wait_for_flag(std::uint32_t& flag, std::uint32_t& last_seen, Stamp expected, const SpinWait& wait,
                   PollProgress&& poll_progress, std::string_view implementation, int rank, int index) {
  std::atomic_ref<std::uint32_t> value(flag);
  std::uint32_t found = last_seen;
  wait.until(
      [&] {
        found = value.load(std::memory_order_acquire);
        if (found != last_seen) return true;
        poll_progress();
        return false;
      },
      [&] {
        return std::string(implementation) + ": rank " + std::to_string(rank) + " waited for flag " +
               std::to_string(index) + " to carry stamp " + std::to_string(expected) + ", but it still holds " +
               std::to_string(found) + ": the peer's write never arrived";
      });
  last_seen = found;
  check_stamp(found, expected, implementation, "flag", index);
}

}  // namespace gwbench
