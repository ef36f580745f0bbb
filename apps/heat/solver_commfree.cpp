// SPDX-License-Identifier: BSD-3-Clause
// commfree: gw-pipelined without communication, the compute-only bound of gw-pipelined. The same
// engine (ColumnPipeline) with no messages runs the same traversal (column block by column block,
// each block top to bottom as one rectangle), the same kernel, on the same kind of memory (a
// ghostwire Segment); only the receives, sends and their tests are missing. Its halos keep their
// initial values, so its field is not the solution.
//
// See docs/heat.md, "The variants".
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

// commfree-rows: commfree plus the data gw-pipelined moves: each block reads the node peers'
// boundary rows in place, as gw-pipelined's kernel does, but without any message, so whatever
// values they hold. The difference to commfree is what moving the boundary rows between the cores
// costs by itself (cache-line transfers and invalidations), which no implementation can avoid;
// the difference to gw-pipelined is what its messages and waiting cost. Across nodes there is no
// peer to read, and it is commfree.
class CommfreeRowsSolver final : public GhostwireSolver {
 public:
  explicit CommfreeRowsSolver(const SolverContext& context)
      : GhostwireSolver(context, ColumnBlockPlan::Protocol::in_place) {}

  void run(Band& band, int timesteps) override {
    ColumnPipeline(decomposition(), band, messages(), idle_policy(), true).run(timesteps);
  }
};

std::unique_ptr<Solver> make_commfree_solver(const SolverContext& context) {
  return std::make_unique<CommfreeSolver>(context);
}

std::unique_ptr<Solver> make_commfree_rows_solver(const SolverContext& context) {
  return std::make_unique<CommfreeRowsSolver>(context);
}

const VariantRegistration commfree{Variant{
    .name = "commfree",
    .description = "gw-pipelined without communication: compute-only bound (invalid result)",
    .position = 7,
    .result_valid = false,
    .single_rank_only = false,
    .create = make_commfree_solver,
}};

const VariantRegistration commfree_rows{Variant{
    .name = "commfree-rows",
    .description = "commfree reading the neighbours' rows in place, unsynchronised: + data movement (invalid)",
    .position = 8,
    .result_valid = false,
    .single_rank_only = false,
    .create = make_commfree_rows_solver,
}};

}  // namespace
}  // namespace heat
