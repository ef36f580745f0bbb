// commfree: every rank sweeps its band exactly as the communicating variants do but never
// exchanges halos, so its time is the compute-only bound of the others. Its field is not the
// solution (the halos stay at their initial values).
#include "solver.hpp"
#include "tile_kernel.hpp"

namespace heat {
namespace {

class CommfreeSolver final : public Solver {
 public:
  explicit CommfreeSolver(const Decomposition& d) : d_(d) {}

  void run(Band& band, int timesteps) override {
    for (int t = 0; t < timesteps; ++t) sweep_tiles_row_major(band, d_);
  }

 private:
  Decomposition d_;
};

}  // namespace

std::unique_ptr<Solver> make_commfree_solver(const SolverContext& context) {
  return std::make_unique<CommfreeSolver>(context.decomposition);
}

}  // namespace heat
