// SPDX-License-Identifier: BSD-3-Clause
// ThreadTeam: the rank's OpenMP threads (--threads) and the barrier their sweeps meet at.
//
// run(body) runs body(thread) on every thread of one parallel region; inside, the threads meet at
// barrier() (between the gradient, the exchange's completion and the flux). The barrier is the
// team's own rather than OpenMP's: it spins only while every thread of every rank on the machine has
// a core, and otherwise yields its core at once, since the thread it waits for may need that very
// core (libgomp's barrier spins for up to ~300,000 polls whatever the load).
//
// An exception in a thread cannot leave a parallel region: it is printed with the rank and thread
// and the job is aborted, as main does with an unexpected exception.
//
// See docs/cfdproxy.md, "Threads and colours".
#pragma once

#include <atomic>
#include <functional>

namespace cfdproxy {

class ThreadTeam {
 public:
  // `oversubscribed`: the machine has fewer cores than ranks x threads (threads_oversubscribe).
  ThreadTeam(int threads, bool oversubscribed);
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;

  int threads() const { return threads_; }
  bool oversubscribed() const { return oversubscribed_; }

  // body(thread) on each of the team's threads, thread 0 being the one that called run(). Throws
  // std::runtime_error if OpenMP gives fewer threads than asked for (OMP_THREAD_LIMIT, nesting).
  void run(const std::function<void(int thread)>& body);

  // Every thread of the team, inside run(), waits until all have arrived.
  void barrier();

  // One poll of a wait loop outside the barrier (e.g. on MPI): a pause, or the core given away
  // when the machine is oversubscribed.
  void relax() const;

 private:
  const int threads_;
  const bool oversubscribed_;
  alignas(64) std::atomic<int> arrived_{0};
  alignas(64) std::atomic<unsigned> generation_{0};
};

// Whether `ranks_on_machine` ranks of `threads` threads each are more than this machine's cores
// (or this process's allowed cores, for its own threads).
bool threads_oversubscribe(int ranks_on_machine, int threads);

}  // namespace cfdproxy
