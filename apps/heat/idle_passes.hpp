// SPDX-License-Identifier: BSD-3-Clause
// What a greedy polling loop does after a pass over its columns that changed nothing: spin
// briefly while every rank has a core of its own, otherwise give the core away at once (the rank
// it waits for may be waiting for this core: 8 ranks on 2 cores), and give up with a diagnostic
// once no pass has made progress for the timeout (GHOSTWIRE_TIMEOUT), instead of hanging.
//
// See docs/heat.md, "The ghostwire variants".
#pragma once

#include <sched.h>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace heat {

struct IdlePolicy {
  double timeout_seconds = 60.0;
  bool yield_at_once = false;  // more ranks than cores
};

class IdlePasses {
 public:
  explicit IdlePasses(const IdlePolicy& policy) : policy_(policy) {}

  void progressed() noexcept { idle_ = 0; }

  // After a pass without progress. `describe()` names what the loop waits for; it is called only
  // on timeout, and its text is thrown as std::runtime_error.
  template <class Describe>
  void idle(Describe&& describe) {
    if (idle_++ == 0) {
      since_ = std::chrono::steady_clock::now();
      return;
    }
    if (policy_.yield_at_once || idle_ > spin_passes) {
      sched_yield();
    } else {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    if ((idle_ & 63) == 0) {
      const std::chrono::duration<double> waited = std::chrono::steady_clock::now() - since_;
      if (waited.count() > policy_.timeout_seconds) {
        throw std::runtime_error("no progress for " + std::to_string(waited.count()) + " s (GHOSTWIRE_TIMEOUT=" +
                                 std::to_string(policy_.timeout_seconds) + "): " + describe());
      }
    }
  }

 private:
  static constexpr std::uint64_t spin_passes = 4096;
  IdlePolicy policy_;
  std::uint64_t idle_ = 0;
  std::chrono::steady_clock::time_point since_{};
};

}  // namespace heat
