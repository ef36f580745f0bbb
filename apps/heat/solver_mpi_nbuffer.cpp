// SPDX-License-Identifier: BSD-3-Clause
// mpi-nbuffer: non-blocking MPI per column block, each boundary row sent as soon as it is relaxed
// (the original 08 version); tiles in row-major order. The traffic is in ColumnBlockExchange. The
// tile rows between the first and the last have no communication, so they are one rectangle for
// the kernel; the tiles of the first and last tile rows are relaxed one by one, around their waits
// and sends.
//
// See docs/heat.md, "The variants".
#include "mpi_column_block_exchange.hpp"
#include "solver.hpp"
#include "tile_kernel.hpp"

namespace heat {
namespace {

class MpiNbufferSolver final : public Solver {
 public:
  MpiNbufferSolver(const Decomposition& d, MPI_Comm comm) : d_(d), comm_(comm) {}

  void run(Band& band, int timesteps) override {
    ColumnBlockExchange exchange(d_, comm_, band, timesteps);
    for (int t = 0; t < timesteps; ++t) {
      int tile_row = 0;
      while (tile_row < d_.tile_rows) {
        if (exchange.communicates(tile_row)) {
          for (int tile_col = 0; tile_col < d_.tile_cols; ++tile_col) exchange.relax_tile(tile_row, tile_col, t);
          ++tile_row;
        } else {
          int end = tile_row + 1;
          while (end < d_.tile_rows && !exchange.communicates(end)) ++end;
          relax_tile_rows_across(band, d_, tile_row, end);
          tile_row = end;
        }
      }
    }
    exchange.finish();
  }

 private:
  Decomposition d_;
  MPI_Comm comm_;
};

std::unique_ptr<Solver> make_mpi_nbuffer_solver(const SolverContext& context) {
  return std::make_unique<MpiNbufferSolver>(context.decomposition, context.comm);
}

const VariantRegistration registration{Variant{
    .name = "mpi-nbuffer",
    .description = "MPI_Isend/MPI_Irecv per column block, as soon as ready",
    .position = 3,
    .result_valid = true,
    .single_rank_only = false,
    .create = make_mpi_nbuffer_solver,
}};

}  // namespace
}  // namespace heat
