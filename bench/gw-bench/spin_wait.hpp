// SPDX-License-Identifier: BSD-3-Clause
// Polling for the hand-written implementations (raw, mpi-put-flag), with the same policy as
// ghostwire's own waits so neither side gets an unfair advantage: spin while every rank has a
// core, yield the core when ranks outnumber cores, and give up with a description after the
// timeout (GHOSTWIRE_TIMEOUT) instead of hanging the job.
#pragma once

#include <sched.h>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gwbench {

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

class WaitTimeout : public std::runtime_error {
 public:
  explicit WaitTimeout(const std::string& message) : std::runtime_error(message) {}
};

class SpinWait {
 public:
  SpinWait(double timeout_seconds, bool oversubscribed) noexcept
      : timeout_seconds_(timeout_seconds), spin_polls_(oversubscribed ? 64 : (1u << 16)) {}

  // Polls `ready()` until it is true; `describe()` builds the message only on timeout.
  template <class Ready, class Describe>
  void until(Ready&& ready, Describe&& describe) const {
    if (ready()) return;
    std::uint64_t polls = 0;
    auto start = std::chrono::steady_clock::now();
    for (;;) {
      if (ready()) return;
      ++polls;
      if (polls < spin_polls_) {
        cpu_relax();
        if ((polls & 4095) != 0) continue;
      } else {
        sched_yield();
        if ((polls & 15) != 0) continue;
      }
      std::chrono::duration<double> waited = std::chrono::steady_clock::now() - start;
      if (waited.count() > timeout_seconds_)
        throw WaitTimeout(describe() + " (waited " + std::to_string(static_cast<int>(waited.count())) +
                          " s; GHOSTWIRE_TIMEOUT sets the limit)");
    }
  }

 private:
  double timeout_seconds_;
  std::uint64_t spin_polls_;
};

}  // namespace gwbench
