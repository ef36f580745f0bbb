// SPDX-License-Identifier: BSD-3-Clause
// ThreadTeam (thread_team.hpp): the parallel region and a barrier that yields when the machine is
// oversubscribed.
#include "thread_team.hpp"

#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace cfdproxy {
namespace {

// Polls before a waiting thread yields although every thread has a core: a barrier between sweeps
// of a few milliseconds is met within this many, and a longer wait is not worth a core.
constexpr unsigned spin_polls = 1u << 16;

void pause() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

int allowed_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return 1;
}

}  // namespace

bool threads_oversubscribe(int ranks_on_machine, int threads) {
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  const long cores = online > 0 ? online : 1;
  return static_cast<long>(ranks_on_machine) * threads > cores || threads > allowed_cores();
}

ThreadTeam::ThreadTeam(int threads, bool oversubscribed) : threads_(threads), oversubscribed_(oversubscribed) {
  if (threads < 1) throw std::invalid_argument("ThreadTeam: threads must be at least 1, got " + std::to_string(threads));
}

void ThreadTeam::run(const std::function<void(int thread)>& body) {
  int got = threads_;
  omp_set_dynamic(0);  // the shares are made for exactly threads_ threads
#pragma omp parallel num_threads(threads_) shared(got)
  {
    if (omp_get_num_threads() != threads_) {
#pragma omp single
      got = omp_get_num_threads();
    } else {
      try {
        body(omp_get_thread_num());
      } catch (const std::exception& e) {
        int rank = 0;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        std::fprintf(stderr, "gw-cfdproxy: rank %d, thread %d: %s\n", rank, omp_get_thread_num(), e.what());
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    }
  }
  if (got != threads_)
    throw std::runtime_error("--threads " + std::to_string(threads_) + ": OpenMP started " + std::to_string(got) +
                             " threads (OMP_THREAD_LIMIT or nested parallelism?)");
}

void ThreadTeam::barrier() {
  if (threads_ == 1) return;
  const unsigned generation = generation_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) == threads_ - 1) {
    // The last one in: the count is reset before the others are let go, so a thread that races
    // ahead to the next barrier counts from zero.
    arrived_.store(0, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    return;
  }
  for (unsigned polls = 0; generation_.load(std::memory_order_acquire) == generation; ++polls) {
    if (oversubscribed_ || polls >= spin_polls) {
      std::this_thread::yield();
    } else {
      pause();
    }
  }
}

void ThreadTeam::relax() const {
  if (oversubscribed_) {
    std::this_thread::yield();
  } else {
    pause();
  }
}

}  // namespace cfdproxy
