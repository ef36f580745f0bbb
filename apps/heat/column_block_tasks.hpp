// SPDX-License-Identifier: BSD-3-Clause
// The OpenMP task graph the task variants share (mpi-omp-tasks, mpi-omp-tasks-mt, gw-omp-tasks):
// a task per column block and sweep, (t, j), whose OpenMP dependences give the lexicographic
// order of the sweep:
//
//   (t, j): inout block j, in block j-1 (its new values are j's left neighbours), in block j+1
//           (its values after sweep t-1 are j's right neighbours; block j+1's sweep t, which
//           writes it, names block j and so waits for this task)
//
// Tasks are created for many sweeps at once, so the runtime pipelines across sweeps: block 0 may
// be in sweep t+1 while block j is still in sweep t. Each variant adds its communication: tasks of
// their own (the MPI variants) or polls inside the block's task (gw-omp-tasks).
//
// Levels. Task (t, j) is at level 2t + j: both its predecessors, (t, j-1) and (t-1, j+1), are one
// level lower, and the tasks of a level are independent (they touch every other block). Count a
// rank's level k as global level k + rank. Then (t, j) needs the upper rank's (t, j) and the lower
// rank's (t-1, j), both of the global level below, and a message task of the MPI variants waits
// for one of the level below or for one of the lower rank on the same level (docs/heat.md). Every
// level ends with a gate task, and a level's tasks start only after the previous level's gate: a
// rank runs its levels in order. That is what makes tasks that poll for messages safe in libgomp,
// whose taskyield does nothing: a polling task holds its thread until its message arrives, and
// without the gates a thread may poll a task of a high level whose message needs, through the
// neighbours, a task of a lower level on this very rank that no free thread is left to run
// (docs/heat.md, "The hybrid variants", has an example with one thread per rank). With the gates,
// the lowest unfinished global level has every message it waits for from the level below, and
// what it waits for on its own level comes from the lower rank, whose tasks of that level never
// wait for this rank's: the bottom rank finishes the level, then the one above, and so on.
//
// The creating thread stays at most `window_levels` levels ahead of the last completed gate
// (taskwait depend), so memory stays bounded however many sweeps run.
//
// See docs/heat.md, "The hybrid variants".
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <exception>
#include <vector>

#include "decomposition.hpp"
#include "hybrid.hpp"

namespace heat {

class ColumnBlockTasks {
 public:
  ColumnBlockTasks(const Decomposition& d, const HybridContext& hybrid);
  virtual ~ColumnBlockTasks() = default;
  ColumnBlockTasks(const ColumnBlockTasks&) = delete;
  ColumnBlockTasks& operator=(const ColumnBlockTasks&) = delete;

  // `timesteps` sweeps: one parallel region of hybrid.threads threads, one of which creates the
  // tasks level by level (create_level) while all of them run them. Returns when all are done.
  void run(int timesteps);

 protected:
  const Decomposition& decomposition() const { return d_; }
  const HybridContext& hybrid() const { return hybrid_; }
  int timesteps() const { return timesteps_; }

  // visit(t, j) for every task of `level` (2t + j == level), t ascending, i.e. j descending.
  template <class Visit>
  void for_each_task(int level, Visit&& visit) const {
    if (level < 0) return;
    const int first = std::max(0, (level - d_.tile_cols + 2) / 2);  // j = level - 2t <= tile_cols - 1
    const int last = std::min(timesteps_ - 1, level / 2);
    for (int t = first; t <= last; ++t) visit(t, level - 2 * t);
  }

  // Dependence objects (only their addresses matter). Block -1 and block tile_cols are never
  // written, so the first and the last block depend on nothing there.
  char* block_token(int j) { return &blocks_[static_cast<std::size_t>(j + 1)]; }
  // A task of `level` (sweep t) names both: the one the previous level's gate wrote (it starts
  // after that gate), and its own level's, which its level's gate waits for. Spread over several
  // objects so that libgomp's list of readers per object stays short.
  char* previous_level_token(int level, int t) { return &levels_[static_cast<std::size_t>((level + 1) & 1)][token_of(t)]; }
  char* level_token(int level, int t) { return &levels_[static_cast<std::size_t>(level & 1)][token_of(t)]; }

  // The compute task (t, j) of `level`, which runs compute(t, j). The second form also reads the
  // dependence objects of block j's halos (the MPI variants' receive tasks write them).
  void create_compute_task(int level, int t, int j);
  void create_compute_task(int level, int t, int j, char* upper_halo, char* lower_halo);

  // Called by the creating thread for every level in order: create the level's tasks.
  virtual void create_level(int level) = 0;
  // The body of compute task (t, j). An exception ends the job (abort_job).
  virtual void compute(int t, int j) = 0;

  // Runs `body` and ends the job on an exception: nothing may leave a task.
  template <class Body>
  void guarded(Body&& body) noexcept {
    try {
      body();
    } catch (const std::exception& error) {
      abort_job(hybrid_.rank, error.what());
    }
  }

 private:
  static constexpr int token_spread = 8;
  static constexpr int window_levels = 4;
  static std::size_t token_of(int t) { return static_cast<std::size_t>(t % token_spread); }
  void create_gate(int level);
  void create_levels();

  const Decomposition& d_;
  const HybridContext& hybrid_;
  int timesteps_ = 0;
  std::vector<char> blocks_;
  std::array<std::array<char, token_spread>, 2> levels_{};
  std::array<char, window_levels> window_{};
};

}  // namespace heat
