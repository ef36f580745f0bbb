// mpi-nbuffer: non-blocking MPI per column block, each boundary row sent as soon as it is relaxed
// (the original 08 version); tiles in row-major order. The traffic is in ColumnBlockExchange.
#include "mpi_column_block_exchange.hpp"
#include "solver.hpp"

namespace heat {
namespace {

class MpiNbufferSolver final : public Solver {
 public:
  MpiNbufferSolver(const Decomposition& d, MPI_Comm comm) : d_(d), comm_(comm) {}

  void run(Band& band, int timesteps) override {
    ColumnBlockExchange exchange(d_, comm_, band, timesteps);
    for (int t = 0; t < timesteps; ++t) {
      for (int tile_row = 0; tile_row < d_.tile_rows; ++tile_row) {
        for (int tile_col = 0; tile_col < d_.tile_cols; ++tile_col) exchange.relax_tile(tile_row, tile_col, t);
      }
    }
    exchange.finish();
  }

 private:
  Decomposition d_;
  MPI_Comm comm_;
};

}  // namespace

std::unique_ptr<Solver> make_mpi_nbuffer_solver(const SolverContext& context) {
  return std::make_unique<MpiNbufferSolver>(context.decomposition, context.comm);
}

}  // namespace heat
