// SPDX-License-Identifier: BSD-3-Clause
// RowWavefront (row_wavefront.hpp): the team's pipelined relax of a stretch of rows (see
// docs/heat.md, "The hybrid variants").
#include "row_wavefront.hpp"

#include <omp.h>

#include <algorithm>
#include <string>

#include "tile_kernel.hpp"

namespace heat {

RowWavefront::RowWavefront(const HybridContext& hybrid, int cols)
    : hybrid_(hybrid), cols_(cols), progress_(static_cast<std::size_t>(hybrid.threads)) {
  // About 16 chunks per thread: the pipeline's fill leaves thread i idle for i chunks, and each
  // chunk costs one hand-over between the cores. Whole cache lines of columns, so the kernel's
  // column groups of 8 stay aligned (band.hpp).
  const int per_thread = 16 * hybrid.threads;
  chunk_cols_ = std::max(8, (cols / per_thread) / 8 * 8);
  chunk_count_ = (cols + chunk_cols_ - 1) / chunk_cols_;
}

void RowWavefront::wait_for(int thread, long long chunks) {
  const std::atomic<long long>& done = progress_[static_cast<std::size_t>(thread)].chunks;
  if (done.load(std::memory_order_acquire) >= chunks) return;
  Backoff wait(hybrid_);
  while (done.load(std::memory_order_acquire) < chunks) {
    wait.pause([&] {
      return "mpi-omp-forkjoin: thread " + std::to_string(thread + 1) + " waits for thread " +
             std::to_string(thread) + " to finish column chunk " + std::to_string(chunks);
    });
  }
}

void RowWavefront::relax(Band& band, int first, int count) {
  // The team the runtime gave (no more than asked for); every member takes part.
  const int threads = omp_get_num_threads();
  const int me = omp_get_thread_num();
  if (threads > static_cast<int>(progress_.size())) abort_job(hybrid_.rank, "mpi-omp-forkjoin: a team larger than asked for");
  Progress& mine = progress_[static_cast<std::size_t>(me)];
  const long long base = mine.calls++ * chunk_count_;
  // Equal parts, the larger ones last; a thread with no rows still passes the chunks on, since the
  // thread below waits for it.
  const int part_first = first + static_cast<int>(static_cast<long long>(count) * me / threads);
  const int part_end = first + static_cast<int>(static_cast<long long>(count) * (me + 1) / threads);
  for (int chunk = 0; chunk < chunk_count_; ++chunk) {
    if (me > 0) wait_for(me - 1, base + chunk + 1);
    const int col = 1 + chunk * chunk_cols_;
    relax_block(band, part_first, part_end - part_first, col, std::min(chunk_cols_, cols_ + 1 - col));
    mine.chunks.store(base + chunk + 1, std::memory_order_release);
  }
}

}  // namespace heat
