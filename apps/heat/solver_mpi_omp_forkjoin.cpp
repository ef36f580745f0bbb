// SPDX-License-Identifier: BSD-3-Clause
// mpi-omp-forkjoin: mpi-blocking's messages, exchanged by the master thread between phases that the
// whole team computes (the study's 04). Per sweep t:
//
//   master: receive the lower halo (from sweep 1 on), then the upper halo   (MPI_Recv per block)
//   team:   relax the first tile row                                       (RowWavefront)
//   master: send the first row up (not after the last sweep)               (MPI_Send per block)
//   team:   relax the other tile rows
//   master: send the last row down
//
// with team barriers where a phase needs the previous one's result. The master sends the first
// row while the others already relax the rows below it (the rows it sends are not touched again
// in this sweep). The MPI calls are mpi-blocking's, in its order, so they cannot deadlock for the
// same reason (docs/heat.md, "The variants"); only the master thread calls MPI
// (MPI_THREAD_FUNNELED).
//
// See docs/heat.md, "The hybrid variants".
#include "hybrid.hpp"
#include "mpi_tags.hpp"
#include "row_wavefront.hpp"
#include "solver.hpp"

namespace heat {
namespace {

class MpiOmpForkjoinSolver final : public Solver {
 public:
  explicit MpiOmpForkjoinSolver(const SolverContext& context)
      : d_(context.decomposition),
        comm_(context.comm),
        tag_(context.comm),
        hybrid_(make_hybrid_context(context.comm, context.threads)) {}

  void run(Band& band, int timesteps) override {
    RowWavefront team(hybrid_, d_.cols);
    const int first_tile_row_end = 1 + d_.bx;  // band rows 1..bx
#pragma omp parallel num_threads(hybrid_.threads)
    for (int t = 0; t < timesteps; ++t) {
#pragma omp master
      guarded([&] {
        // The initial lower halo is already right (initialise_band), so sweep 0 receives none.
        if (d_.has_lower() && t > 0) receive_row(band.lower_halo(), d_.lower());
        if (d_.has_upper()) receive_row(band.upper_halo(), d_.upper());
      });
#pragma omp barrier
      team.relax(band, 1, d_.bx);
#pragma omp barrier
#pragma omp master
      guarded([&] {
        if (d_.has_upper() && t + 1 < timesteps) send_row(band.first_owned(), d_.upper());
      });
      team.relax(band, first_tile_row_end, d_.band_rows - d_.bx);
#pragma omp barrier
#pragma omp master
      guarded([&] {
        if (d_.has_lower()) send_row(band.last_owned(), d_.lower());
      });
      // The next sweep's receives overwrite halos only the master reads before its barrier.
    }
  }

 private:
  template <class Body>
  void guarded(Body&& body) noexcept {
    try {
      body();
    } catch (const std::exception& error) {
      abort_job(hybrid_.rank, error.what());
    }
  }
  void receive_row(double* row, int source) {
    for (int j = 0; j < d_.tile_cols; ++j) {
      MPI_Recv(row + d_.tile_first_col(j), d_.by, MPI_DOUBLE, source, tag_(j), comm_, MPI_STATUS_IGNORE);
    }
  }
  void send_row(const double* row, int destination) {
    for (int j = 0; j < d_.tile_cols; ++j) {
      MPI_Send(row + d_.tile_first_col(j), d_.by, MPI_DOUBLE, destination, tag_(j), comm_);
    }
  }

  Decomposition d_;
  MPI_Comm comm_;
  ColumnBlockTags tag_;
  HybridContext hybrid_;
};

std::unique_ptr<Solver> make_mpi_omp_forkjoin_solver(const SolverContext& context) {
  return std::make_unique<MpiOmpForkjoinSolver>(context);
}

const VariantRegistration registration{Variant{
    .name = "mpi-omp-forkjoin",
    .description = "mpi-blocking's messages by the master thread, each phase by the team (04)",
    .position = 9,
    .result_valid = true,
    .single_rank_only = false,
    .create = make_mpi_omp_forkjoin_solver,
    .threaded = true,
    .thread_level = MPI_THREAD_FUNNELED,
}};

}  // namespace
}  // namespace heat
