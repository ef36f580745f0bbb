// gw-pipelined: ghostwire, one channel per column block and direction, and a sweep counter per
// column block, so blocks pipeline across sweeps (the GASPI-SHAN 011 version, made lexicographic:
// see column_pipeline.hpp). The band is in a ghostwire Segment, so a node peer copies a boundary
// row straight out of it; sending is a counter store.
#include "column_pipeline.hpp"
#include "ghostwire_solver.hpp"

namespace heat {
namespace {

class GwPipelinedSolver final : public GhostwireSolver {
 public:
  explicit GwPipelinedSolver(const SolverContext& context) : GhostwireSolver(context, true) {}

  void run(Band& band, int timesteps) override {
    ColumnPipeline(decomposition(), band, messages(), idle_policy()).run(timesteps);
  }
};

}  // namespace

std::unique_ptr<Solver> make_gw_pipelined_solver(const SolverContext& context) {
  return std::make_unique<GwPipelinedSolver>(context);
}

}  // namespace heat
