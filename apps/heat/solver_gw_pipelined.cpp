// SPDX-License-Identifier: BSD-3-Clause
// gw-pipelined: ghostwire, one channel per column block and direction, and a sweep counter per
// column block, so blocks pipeline across sweeps (the GASPI-SHAN 011 version, made lexicographic:
// see column_pipeline.hpp). The band is in a ghostwire Segment and a node peer's boundary row is
// read in place by the kernel (no copy), acknowledged by the next message back (no store of its
// own): sending is one counter store, receiving one counter load (column_block_plan.hpp).
//
// See docs/heat.md, "The ghostwire variants".
#include "column_pipeline.hpp"
#include "ghostwire_solver.hpp"
#include "tile_kernel.hpp"

namespace heat {
namespace {

class GwPipelinedSolver final : public GhostwireSolver {
 public:
  explicit GwPipelinedSolver(const SolverContext& context) : GhostwireSolver(context, ColumnBlockPlan::Protocol::in_place) {}

  void run(Band& band, int timesteps) override {
    if (messages() == nullptr) return sweep_alone(band, timesteps);
    ColumnPipeline(decomposition(), band, messages(), idle_policy()).run(timesteps);
  }

 private:
  // One rank: no neighbour waits for a column block's boundary rows, so nothing is gained by
  // pipelining column blocks, and a column block descending the whole band touches every row's
  // page once per block (docs/heat.md, "The ghostwire variants"). The band is swept whole, row
  // groups across every column: the same bits in the lexicographic order.
  void sweep_alone(Band& band, int timesteps) const {
    const Decomposition& d = decomposition();
    for (int t = 0; t < timesteps; ++t) relax_tile_rows_across(band, d, 0, d.tile_rows);
  }
};

std::unique_ptr<Solver> make_gw_pipelined_solver(const SolverContext& context) {
  return std::make_unique<GwPipelinedSolver>(context);
}

const VariantRegistration registration{Variant{
    .name = "gw-pipelined",
    .description = "ghostwire, a channel per column block, pipelined across sweeps (011)",
    .position = 6,
    .result_valid = true,
    .single_rank_only = false,
    .create = make_gw_pipelined_solver,
}};

}  // namespace
}  // namespace heat
