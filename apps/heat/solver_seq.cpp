// seq: the whole grid on one rank, tiles in row-major order, like the original 01 version. Every
// other valid variant must reproduce its bits.
#include "solver.hpp"
#include "tile_kernel.hpp"

namespace heat {
namespace {

class SeqSolver final : public Solver {
 public:
  explicit SeqSolver(const Decomposition& d) : d_(d) {}

  void run(Band& band, int timesteps) override {
    for (int t = 0; t < timesteps; ++t) sweep_tiles_row_major(band, d_);
  }

 private:
  Decomposition d_;
};

}  // namespace

std::unique_ptr<Solver> make_seq_solver(const SolverContext& context) {
  return std::make_unique<SeqSolver>(context.decomposition);
}

}  // namespace heat
