// SPDX-License-Identifier: BSD-3-Clause
// What the hybrid (MPI + OpenMP) variants share: how many threads a rank runs, whether the
// machine's cores are oversubscribed by ranks x threads, how long a wait may take, and how a
// thread waits (Backoff).
//
// Waits inside threads and OpenMP tasks cannot throw out of their region, so a wait that times
// out, or any error inside a task, ends the job through abort_job with a message naming the rank
// and what was awaited (the same contract as GHOSTWIRE_TIMEOUT for the ghostwire variants).
//
// See docs/heat.md, "The hybrid variants".
#pragma once

#include <mpi.h>
#include <sched.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace heat {

struct HybridContext {
  int rank = 0;                 // in the job, for messages
  int threads = 1;              // of this rank's OpenMP team
  double timeout_seconds = 60;  // GHOSTWIRE_TIMEOUT
  // ranks x threads on this machine exceed its cores: a waiting thread gives its core away at
  // once, since the thread it waits for may need it.
  bool yield_at_once = false;
};

// Collective over `comm`: counts the ranks of the job on this machine (by kernel boot id, so the
// emulated hosts of scripts/launch --path multihost count as one machine) and the cores they may
// use. A malformed GHOSTWIRE_TIMEOUT is a UsageError on every rank.
HybridContext make_hybrid_context(MPI_Comm comm, int threads);

// "MPI_THREAD_SERIALIZED"
const char* thread_level_name(int level);

// Prints "gw-heat: rank R: <what>" and aborts the job: for errors inside threads and tasks, where
// an exception cannot reach main.
[[noreturn]] void abort_job(int rank, const std::string& what);

// One thread's wait for a condition it polls: spins briefly while every thread has a core, else
// yields at once; aborts the job once the wait has lasted longer than the timeout.
class Backoff {
 public:
  explicit Backoff(const HybridContext& context) : context_(context) {}

  // After a poll that found nothing. `describe()` names what is awaited; it is called only on
  // timeout.
  template <class Describe>
  void pause(Describe&& describe) {
    if (polls_++ == 0) {
      since_ = std::chrono::steady_clock::now();
      return;
    }
    if (context_.yield_at_once || polls_ > spin_polls) {
      sched_yield();
    } else {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    if ((polls_ & 63) == 0) {
      const std::chrono::duration<double> waited = std::chrono::steady_clock::now() - since_;
      if (waited.count() > context_.timeout_seconds) {
        abort_job(context_.rank, "no progress for " + std::to_string(waited.count()) +
                                     " s (GHOSTWIRE_TIMEOUT=" + std::to_string(context_.timeout_seconds) +
                                     "): " + describe());
      }
    }
  }

 private:
  static constexpr std::uint64_t spin_polls = 4096;
  const HybridContext& context_;
  std::uint64_t polls_ = 0;
  std::chrono::steady_clock::time_point since_{};
};

}  // namespace heat
