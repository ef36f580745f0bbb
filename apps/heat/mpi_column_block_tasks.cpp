// SPDX-License-Identifier: BSD-3-Clause
// MpiColumnBlockTasks (mpi_column_block_tasks.hpp): the message tasks of mpi-omp-tasks (serialised,
// blocking) and mpi-omp-tasks-mt (parallel, polled) around the column block tasks (see
// docs/heat.md, "The hybrid variants").
#include "mpi_column_block_tasks.hpp"

#include "tile_kernel.hpp"
#include "usage_error.hpp"

namespace heat {

// The dependence objects are locals named only in depend clauses, which GCC 12 counts as unused:
// hence [[maybe_unused]].

MpiColumnBlockTasks::MpiColumnBlockTasks(const Decomposition& d, const HybridContext& hybrid, MPI_Comm comm,
                                         Band& band, Messages messages)
    : ColumnBlockTasks(d, hybrid), comm_(comm), band_(band), messages_(messages), tag_(comm) {
  const auto blocks = static_cast<std::size_t>(d.tile_cols);
  for (int direction : {upper, lower}) {
    serial_[direction].assign(blocks, 0);
    halos_[direction].assign(blocks, 0);
    sends_[direction].assign(blocks, MPI_REQUEST_NULL);
  }
}

void MpiColumnBlockTasks::create_level(int level) {
  const bool has_upper = d().has_upper(), has_lower = d().has_lower();
  // The order of the message tasks is the order in which the serialised form runs them, which
  // docs/heat.md shows to be deadlock-free; the tags of a neighbour pair are posted and sent in
  // the same order on both sides (t ascending within a level), as mpi_tags.hpp needs.
  if (has_upper) for_each_task(level, [&](int t, int j) { create_receive(level, t, j, upper); });
  for_each_task(level, [&](int t, int j) {
    create_compute_task(level, t, j, &halos_[upper][static_cast<std::size_t>(j)],
                        &halos_[lower][static_cast<std::size_t>(j)]);
  });
  // The lower rank sends the lower halos of level + 1 on this level (its first rows after the
  // sweep before); receiving them here, not a level later, keeps a blocking send from waiting for
  // a receive that comes only after this rank's own blocking sends.
  if (has_lower) {
    for_each_task(level + 1, [&](int t, int j) {
      if (t >= 1) create_receive(level, t, j, lower);
    });
  }
  if (has_upper) {
    for_each_task(level, [&](int t, int j) {
      if (t + 1 < timesteps()) create_send(level, t, j, upper);  // after the last sweep nobody needs it
    });
  }
  if (has_lower) for_each_task(level, [&](int t, int j) { create_send(level, t, j, lower); });
}

char* MpiColumnBlockTasks::serial_token(Direction direction, int j) {
  if (messages_ == Messages::serialised) return &sentinel_;
  return &serial_[direction][static_cast<std::size_t>(j)];
}

void MpiColumnBlockTasks::create_receive(int level, int t, int j, Direction from) {
  [[maybe_unused]] char* halo = &halos_[from][static_cast<std::size_t>(j)];
  [[maybe_unused]] char* serial = serial_token(from, j);
  [[maybe_unused]] char* previous = previous_level_token(level, t);
  [[maybe_unused]] char* now = level_token(level, t);
#pragma omp task firstprivate(t, j, from) depend(out: halo[0]) depend(inout: serial[0]) depend(in: previous[0], now[0])
  guarded([&] { receive(t, j, from); });
}

void MpiColumnBlockTasks::create_send(int level, int t, int j, Direction to) {
  [[maybe_unused]] char* mine = block_token(j);
  [[maybe_unused]] char* serial = serial_token(to, j);
  [[maybe_unused]] char* previous = previous_level_token(level, t);
  [[maybe_unused]] char* now = level_token(level, t);
#pragma omp task firstprivate(t, j, to) depend(in: mine[0], previous[0], now[0]) depend(inout: serial[0])
  guarded([&] { send(t, j, to); });
}

void MpiColumnBlockTasks::compute(int t, int j) {
  if (messages_ == Messages::parallel) {
    // The rows this task overwrites may still be on their way to the neighbours.
    for (const Direction direction : {upper, lower}) {
      MPI_Request& previous = sends_[direction][static_cast<std::size_t>(j)];
      if (previous != MPI_REQUEST_NULL) complete(previous, t, j, "its previous row sent to", direction);
    }
  }
  relax_column_block_rows(band_, d(), j, 1, d().band_rows);
}

void MpiColumnBlockTasks::receive(int t, int j, Direction from) {
  double* halo = (from == upper ? band_.upper_halo() : band_.lower_halo()) + d().tile_first_col(j);
  if (messages_ == Messages::serialised) {
    MPI_Recv(halo, d().by, MPI_DOUBLE, neighbour(from), tag_(j), comm_, MPI_STATUS_IGNORE);
    return;
  }
  MPI_Request request = MPI_REQUEST_NULL;
  MPI_Irecv(halo, d().by, MPI_DOUBLE, neighbour(from), tag_(j), comm_, &request);
  complete(request, t, j, from == upper ? "its upper halo from" : "its lower halo from", from);
}

void MpiColumnBlockTasks::send(int /*t*/, int j, Direction to) {
  const double* row = (to == upper ? band_.first_owned() : band_.last_owned()) + d().tile_first_col(j);
  if (messages_ == Messages::serialised) {
    MPI_Send(row, d().by, MPI_DOUBLE, neighbour(to), tag_(j), comm_);
    return;
  }
  MPI_Isend(row, d().by, MPI_DOUBLE, neighbour(to), tag_(j), comm_, &sends_[to][static_cast<std::size_t>(j)]);
}

void MpiColumnBlockTasks::complete(MPI_Request& request, int t, int j, const char* what, Direction peer) {
  Backoff wait(hybrid());
  for (;;) {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    // libgomp's taskyield does nothing; the levels (column_block_tasks.hpp) keep this wait finite.
#pragma omp taskyield
    wait.pause([&] {
      return "mpi-omp-tasks-mt: sweep " + std::to_string(t) + ", column block " + std::to_string(j) + " waits for " +
             what + " rank " + std::to_string(neighbour(peer)) + " (tag " + std::to_string(tag_(j)) + ")";
    });
  }
}

void MpiColumnBlockTasks::finish() {
  if (messages_ != Messages::parallel) return;
  for (const Direction direction : {upper, lower}) {
    for (int j = 0; j < d().tile_cols; ++j) {
      MPI_Request& request = sends_[direction][static_cast<std::size_t>(j)];
      if (request != MPI_REQUEST_NULL) complete(request, timesteps() - 1, j, "its last row sent to", direction);
    }
  }
}

void require_tag_per_column_block(const Decomposition& d, MPI_Comm comm, const std::string& variant) {
  const ColumnBlockTags tags(comm);
  if (d.tile_cols > tags.count()) {
    throw UsageError("variant '" + variant + "' needs a message tag per column block: " +
                     std::to_string(d.tile_cols) + " column blocks, but MPI has " + std::to_string(tags.count()) +
                     " tags (MPI_TAG_UB + 1); use wider tiles (--by)");
  }
}

}  // namespace heat
