// SPDX-License-Identifier: BSD-3-Clause
// seq: the whole grid on one rank, tiles in row-major order, like the original 01 version, with
// the plain row-by-row kernel (relax_rows). Every other valid variant, all of which use the fast
// kernel, must reproduce its bits.
// See docs/heat.md, "The variants".
#include "solver.hpp"
#include "tile_kernel.hpp"

namespace heat {
namespace {

class SeqSolver final : public Solver {
 public:
  explicit SeqSolver(const Decomposition& d) : d_(d) {}

  void run(Band& band, int timesteps) override {
    for (int t = 0; t < timesteps; ++t) {
      for (int tile_row = 0; tile_row < d_.tile_rows; ++tile_row) {
        for (int tile_col = 0; tile_col < d_.tile_cols; ++tile_col) {
          relax_rows(band, d_.tile_first_row(tile_row), d_.bx, d_.tile_first_col(tile_col), d_.by);
        }
      }
    }
  }

 private:
  Decomposition d_;
};

std::unique_ptr<Solver> make_seq_solver(const SolverContext& context) {
  return std::make_unique<SeqSolver>(context.decomposition);
}

const VariantRegistration registration{Variant{
    .name = "seq",
    .description = "1 rank, row-major tiles: the reference result",
    .position = 1,
    .result_valid = true,
    .single_rank_only = true,
    .create = make_seq_solver,
}};

}  // namespace
}  // namespace heat
