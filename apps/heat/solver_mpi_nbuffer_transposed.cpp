// SPDX-License-Identifier: BSD-3-Clause
// mpi-nbuffer-transposed: mpi-nbuffer with the tiles in column-major order (the original 09
// version). A column block's last row is ready after tile_rows tiles instead of after all the
// tile rows above it, so the lower rank can start its sweep much earlier and the wavefront
// through the ranks builds up faster. The tiles of a column block follow each other with no
// communication except around the first and the last row, so the kernel gets the column block as
// one tall rectangle (ColumnBlockExchange::relax_column_block): the traversal of gw-pipelined.
//
// See docs/heat.md, "The variants".
#include "mpi_column_block_exchange.hpp"
#include "solver.hpp"

namespace heat {
namespace {

class MpiNbufferTransposedSolver final : public Solver {
 public:
  MpiNbufferTransposedSolver(const Decomposition& d, MPI_Comm comm) : d_(d), comm_(comm) {}

  void run(Band& band, int timesteps) override {
    ColumnBlockExchange exchange(d_, comm_, band, timesteps);
    for (int t = 0; t < timesteps; ++t) {
      for (int tile_col = 0; tile_col < d_.tile_cols; ++tile_col) exchange.relax_column_block(tile_col, t);
    }
    exchange.finish();
  }

 private:
  Decomposition d_;
  MPI_Comm comm_;
};

std::unique_ptr<Solver> make_mpi_nbuffer_transposed_solver(const SolverContext& context) {
  return std::make_unique<MpiNbufferTransposedSolver>(context.decomposition, context.comm);
}

const VariantRegistration registration{Variant{
    .name = "mpi-nbuffer-transposed",
    .description = "mpi-nbuffer, column-major tiles (faster wavefront)",
    .position = 4,
    .result_valid = true,
    .single_rank_only = false,
    .create = make_mpi_nbuffer_transposed_solver,
}};

}  // namespace
}  // namespace heat
