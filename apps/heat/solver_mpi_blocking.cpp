// SPDX-License-Identifier: BSD-3-Clause
// mpi-blocking: halo rows exchanged with blocking MPI_Send/MPI_Recv, one message per column block,
// around a full sweep of the band (the scheme of the original 03 version).
//
// Per sweep t a rank (1) receives the lower halo: the lower rank's first row after sweep t-1,
// (2) receives the upper halo: the upper rank's last row after sweep t, (3) relaxes its first tile
// row, (4) sends its first row up (the upper rank needs it for sweep t+1), (5) relaxes the rest,
// (6) sends its last row down. The original sends the first row at the start of the next sweep;
// sending it right after the first tile row (4) lets the upper rank start its next sweep while
// this one finishes, which is what a careful MPI programmer would do: neighbours overlap instead
// of taking turns. The order of the blocking calls never deadlocks, even when every send waits for
// its receive (rendezvous): each send's receive is posted by a rank that needs nothing more from
// the sender first. The tiles of (3) and of (5) have no communication between them, so each group
// is one rectangle for the kernel (tile_kernel.hpp).
//
// See docs/heat.md, "The variants".
#include "mpi_tags.hpp"
#include "solver.hpp"
#include "tile_kernel.hpp"

namespace heat {
namespace {

class MpiBlockingSolver final : public Solver {
 public:
  MpiBlockingSolver(const Decomposition& d, MPI_Comm comm) : d_(d), comm_(comm), tag_(comm) {}

  void run(Band& band, int timesteps) override {
    for (int t = 0; t < timesteps; ++t) {
      // The initial lower halo is already right (initialise_band), so sweep 0 receives none.
      if (d_.has_lower() && t > 0) receive_row(band.lower_halo(), d_.lower());
      if (d_.has_upper()) receive_row(band.upper_halo(), d_.upper());
      relax_tile_rows_across(band, d_, 0, 1);
      // After the last sweep nobody needs my first row.
      if (d_.has_upper() && t + 1 < timesteps) send_row(band.first_owned(), d_.upper());
      relax_tile_rows_across(band, d_, 1, d_.tile_rows);
      if (d_.has_lower()) send_row(band.last_owned(), d_.lower());
    }
  }

 private:
  void receive_row(double* row, int source) {
    for (int j = 0; j < d_.tile_cols; ++j) {
      MPI_Recv(row + d_.tile_first_col(j), d_.by, MPI_DOUBLE, source, tag_(j), comm_,
               MPI_STATUS_IGNORE);
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
};

std::unique_ptr<Solver> make_mpi_blocking_solver(const SolverContext& context) {
  return std::make_unique<MpiBlockingSolver>(context.decomposition, context.comm);
}

const VariantRegistration registration{Variant{
    .name = "mpi-blocking",
    .description = "MPI_Send/MPI_Recv of the halo rows around each sweep",
    .position = 2,
    .result_valid = true,
    .single_rank_only = false,
    .create = make_mpi_blocking_solver,
}};

}  // namespace
}  // namespace heat
