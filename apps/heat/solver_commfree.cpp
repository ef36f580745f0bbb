// commfree: gw-pipelined without communication, the compute-only bound of gw-pipelined. The same
// engine (ColumnPipeline) with no messages runs the same traversal (column block by column block,
// each block top to bottom as one rectangle), the same kernel, on the same kind of memory (a
// ghostwire Segment); only the receives, sends and their tests are missing. Its halos keep their
// initial values, so its field is not the solution.
#include "column_pipeline.hpp"
#include "ghostwire_solver.hpp"

namespace heat {
namespace {

class CommfreeSolver final : public GhostwireSolver {
 public:
  explicit CommfreeSolver(const SolverContext& context) : GhostwireSolver(context, std::nullopt) {}

  void run(Band& band, int timesteps) override {
    ColumnPipeline(decomposition(), band, nullptr, idle_policy()).run(timesteps);
  }
};

}  // namespace

std::unique_ptr<Solver> make_commfree_solver(const SolverContext& context) {
  return std::make_unique<CommfreeSolver>(context);
}

}  // namespace heat
