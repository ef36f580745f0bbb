// SPDX-License-Identifier: BSD-3-Clause
// RowWavefront: the threads of a team relax a stretch of band rows across the whole width
// together, for mpi-omp-forkjoin. Thread i takes the i-th of `threads` equal parts of the rows and
// goes through the columns chunk by chunk, each chunk only after thread i-1 has finished it:
//
//   thread 0   | c0 | c1 | c2 | c3 | ...
//   thread 1        | c0 | c1 | c2 | ...      (one chunk behind)
//
// So every point is updated after its upper neighbour (thread i-1's last row, done in this chunk)
// and its left one (this thread's previous chunk), and before its lower one (thread i+1 reaches
// this chunk only afterwards) and its right one (this thread's next chunk): the lexicographic
// sweep's bits (docs/heat.md, "The algorithm"). A thread that waits spins, or yields at once when
// the machine is oversubscribed, and ends the job after the timeout (hybrid.hpp).
//
// See docs/heat.md, "The hybrid variants".
#pragma once

#include <atomic>
#include <vector>

#include "band.hpp"
#include "hybrid.hpp"

namespace heat {

class RowWavefront {
 public:
  RowWavefront(const HybridContext& hybrid, int cols);

  // Called by every thread of the team (of at most hybrid.threads threads), each the same number
  // of times in the same order: band rows [first, first + count), all columns.
  void relax(Band& band, int first, int count);

 private:
  // Chunks thread i has finished, over all calls so far (it never goes back, so no reset between
  // calls). One cache line each: each is written by one thread and read by the next.
  struct alignas(64) Progress {
    std::atomic<long long> chunks{0};
    long long calls = 0;  // this thread's calls of relax(), read by no other thread
  };
  void wait_for(int thread, long long chunks);

  const HybridContext& hybrid_;
  int cols_;
  int chunk_cols_;
  int chunk_count_;
  std::vector<Progress> progress_;
};

}  // namespace heat
