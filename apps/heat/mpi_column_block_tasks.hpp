// SPDX-License-Identifier: BSD-3-Clause
// The engine of mpi-omp-tasks and mpi-omp-tasks-mt (the study's 05 and 06): the column block tasks
// of ColumnBlockTasks with the halo messages in tasks of their own, one per column block, sweep and
// direction, on MPI_COMM_WORLD with a tag per column block:
//
//   receive upper halo of (t, j)   before compute (t, j): the upper rank's last row after its sweep t
//   receive lower halo of (t, j)   before compute (t, j), t >= 1: the lower rank's first row after t-1
//   send first row of (t, j)       after compute (t, j), t < T-1, to the upper rank
//   send last row of (t, j)        after compute (t, j), to the lower rank
//
// On each level (column_block_tasks.hpp) the tasks are created in this order: the upper halos the
// level's tasks need, the compute tasks, the lower halos the *next* level's tasks need (the lower
// rank sends them on this level), the first rows, the last rows.
//
//  - serialised (05): every message task also names one sentinel object (inout), so they run one
//    at a time in the order above, and use blocking MPI_Recv / MPI_Send; MPI_THREAD_SERIALIZED.
//  - parallel (06): no sentinel; a receive task posts MPI_Irecv and polls it with MPI_Test and
//    taskyield (a Backoff), a send task posts MPI_Isend, and the next compute task of the block
//    polls that send before it overwrites the row; MPI_THREAD_MULTIPLE. A send task never waits,
//    so no thread is held by a send whose receive the neighbour has yet to post.
//
// Why neither can deadlock: docs/heat.md, "The hybrid variants".
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "band.hpp"
#include "column_block_tasks.hpp"
#include "mpi_tags.hpp"

namespace heat {

class MpiColumnBlockTasks final : public ColumnBlockTasks {
 public:
  enum class Messages { serialised, parallel };
  MpiColumnBlockTasks(const Decomposition& d, const HybridContext& hybrid, MPI_Comm comm, Band& band,
                      Messages messages);
  // run(timesteps), then this: waits for the sends still in flight (parallel).
  void finish();

 private:
  enum Direction { upper = 0, lower = 1 };
  void create_level(int level) override;
  void compute(int t, int j) override;
  void create_receive(int level, int t, int j, Direction from);
  void create_send(int level, int t, int j, Direction to);
  void receive(int t, int j, Direction from);
  void send(int t, int j, Direction to);
  // Polls `request` until it completes (parallel).
  void complete(MPI_Request& request, int t, int j, const char* what, Direction peer);
  // The object every message task of a (direction, block) names inout: the one sentinel when
  // serialised; one of its own when parallel, which adds no order (the block's messages are
  // ordered by the block's compute tasks anyway).
  char* serial_token(Direction direction, int j);
  int neighbour(Direction direction) const { return direction == upper ? d().upper() : d().lower(); }
  const Decomposition& d() const { return decomposition(); }

  MPI_Comm comm_;
  Band& band_;
  Messages messages_;
  ColumnBlockTags tag_;
  char sentinel_ = 0;
  std::vector<char> serial_[2];
  std::vector<char> halos_[2];  // dependence objects of block j's upper and lower halo
  // parallel: per direction and block, the last send, polled by the block's next compute task.
  std::vector<MPI_Request> sends_[2];
};

// For the parallel form: more column blocks than tags would let two messages of one sweep share
// a tag in no fixed order. A UsageError naming the limit.
void require_tag_per_column_block(const Decomposition& d, MPI_Comm comm, const std::string& variant);

}  // namespace heat
