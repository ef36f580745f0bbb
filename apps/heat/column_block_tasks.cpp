// SPDX-License-Identifier: BSD-3-Clause
// ColumnBlockTasks (column_block_tasks.hpp): the parallel region, the creation of the levels with
// their gates, and the compute tasks with their dependences (see docs/heat.md, "The hybrid
// variants").
#include "column_block_tasks.hpp"

#include <exception>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define GW_HEAT_ARCHER 1
#endif
#endif
#ifndef GW_HEAT_ARCHER
#define GW_HEAT_ARCHER 0
#endif

namespace heat {

// The dependence objects are locals named only in depend clauses, which GCC 12 counts as unused:
// hence [[maybe_unused]].

ColumnBlockTasks::ColumnBlockTasks(const Decomposition& d, const HybridContext& hybrid)
    : d_(d), hybrid_(hybrid), blocks_(static_cast<std::size_t>(d.tile_cols) + 2, 0) {}

void ColumnBlockTasks::run(int timesteps) {
  timesteps_ = timesteps;
#pragma omp parallel num_threads(hybrid_.threads)
#pragma omp single
  guarded([&] { create_levels(); });
  // The single construct's barrier: every thread has run tasks until all were done.
}

void ColumnBlockTasks::create_levels() {
  const int levels = timesteps_ > 0 ? 2 * (timesteps_ - 1) + d_.tile_cols : 0;
  for (int level = 0; level < levels; ++level) {
    if (level >= window_levels) {
      // The gate of level - window_levels wrote this object last. The creating thread runs tasks
      // while it waits, so with one thread this is where the tasks run.
      [[maybe_unused]] char* done = &window_[static_cast<std::size_t>(level % window_levels)];
#if GW_HEAT_ARCHER
      // LLVM 14's Archer (ThreadSanitizer for OpenMP) crashes on taskwait depend: the TSan build
      // waits for every task created so far instead, which is slower but orders no less.
#pragma omp taskwait
#else
#pragma omp taskwait depend(in: done[0])
#endif
    }
    create_level(level);
    create_gate(level);
  }
}

void ColumnBlockTasks::create_gate(int level) {
  // Waits for every task of `level` (they all read one of these objects) and, writing them, holds
  // back every task of level + 1 (they read them as their previous level's).
  [[maybe_unused]] char* now = levels_[static_cast<std::size_t>(level & 1)].data();
  [[maybe_unused]] char* done = &window_[static_cast<std::size_t>(level % window_levels)];
  static_assert(token_spread == 8, "the gate names each of the level's objects");
#pragma omp task depend(out: now[0], now[1], now[2], now[3], now[4], now[5], now[6], now[7], done[0])
  {
  }
}

void ColumnBlockTasks::create_compute_task(int level, int t, int j) {
  [[maybe_unused]] char* mine = block_token(j);
  [[maybe_unused]] char* left = block_token(j - 1);
  [[maybe_unused]] char* right = block_token(j + 1);
  [[maybe_unused]] char* previous = previous_level_token(level, t);
  [[maybe_unused]] char* now = level_token(level, t);
#pragma omp task firstprivate(t, j) depend(inout: mine[0]) depend(in: left[0], right[0], previous[0], now[0])
  guarded([&] { compute(t, j); });
}

void ColumnBlockTasks::create_compute_task(int level, int t, int j, [[maybe_unused]] char* upper_halo,
                                           [[maybe_unused]] char* lower_halo) {
  [[maybe_unused]] char* mine = block_token(j);
  [[maybe_unused]] char* left = block_token(j - 1);
  [[maybe_unused]] char* right = block_token(j + 1);
  [[maybe_unused]] char* previous = previous_level_token(level, t);
  [[maybe_unused]] char* now = level_token(level, t);
#pragma omp task firstprivate(t, j) \
    depend(inout: mine[0]) depend(in: left[0], right[0], previous[0], now[0], upper_halo[0], lower_halo[0])
  guarded([&] { compute(t, j); });
}

}  // namespace heat
