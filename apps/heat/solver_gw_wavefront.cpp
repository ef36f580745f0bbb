// SPDX-License-Identifier: BSD-3-Clause
// gw-wavefront: ghostwire, one channel per column block and direction, sweep by sweep with a
// greedy dependency state machine per column block (the GASPI-SHAN 010 version, made
// lexicographic). In every sweep, column block j goes through
//
//   received upper halo   the upper rank's last row under j after this sweep
//   received lower halo   the lower rank's first row under j after the previous sweep (sweep 1 on)
//   first row free        my first row under j, sent after the previous sweep, has been consumed
//   solved                relaxed, top to bottom as one rectangle; requires the three above and
//                         block j-1 solved (the left rule 010 lacks, which keeps the result
//                         lexicographic); then my first row is sent up (not after the last sweep)
//                         and my last row down
//   complete              solved, and the lower rank has consumed my last row under j
//
// and the next sweep starts when every block is complete, as in 010 (its flags are reset per
// sweep). Blocks of different sweeps never mix: the right rule holds by construction.
//
// Every one of these events happens in column order: the neighbours solve, and so send and
// receive, their blocks in column order. So the state of all blocks is five cursors (the first
// block that has not yet received its upper halo, and so on), and a pass polls each cursor's block
// only: polling any later block would fail. A pass advances every cursor as far as it can, then
// solves at most one block, so that receives (which the neighbours wait for) are never held up by
// a run of solves.
//
// See docs/heat.md, "The ghostwire variants".
#include <algorithm>
#include <string>

#include "ghostwire_solver.hpp"
#include "tile_kernel.hpp"

namespace heat {
namespace {

class GwWavefrontSolver final : public GhostwireSolver {
 public:
  explicit GwWavefrontSolver(const SolverContext& context) : GhostwireSolver(context, ColumnBlockPlan::Protocol::copy) {}

  void run(Band& band, int timesteps) override {
    const Decomposition& d = decomposition();
    ColumnBlockPlan* messages = this->messages();
    const bool has_upper = messages != nullptr && messages->has_upper();
    const bool has_lower = messages != nullptr && messages->has_lower();
    const int blocks = d.tile_cols;
    IdlePasses idle(idle_policy());

    for (int t = 0; t < timesteps; ++t) {
      // Blocks before a cursor have passed that state in this sweep.
      int received_upper = has_upper ? 0 : blocks;
      int received_lower = has_lower && t > 0 ? 0 : blocks;
      int first_row_free = has_upper && t > 0 ? 0 : blocks;
      int solved = 0;
      int complete = 0;  // solved and, with a lower rank, last row consumed
      while (complete < blocks) {
        bool changed = false;
        for (; received_upper < blocks && messages->receive_upper_halo(received_upper); ++received_upper) changed = true;
        for (; received_lower < blocks && messages->receive_lower_halo(received_lower); ++received_lower) changed = true;
        for (; first_row_free < blocks && messages->first_row_consumed(first_row_free); ++first_row_free) changed = true;
        if (solved < std::min({received_upper, received_lower, first_row_free})) {
          if (messages != nullptr && solved + 1 < blocks) messages->prefetch_halo_sources(solved + 1);
          relax_column_block_rows(band, d, solved, 1, d.band_rows);
          if (has_upper && t + 1 < timesteps) messages->send_first_row(solved);
          if (has_lower) messages->send_last_row(solved);
          ++solved;
          changed = true;
        }
        for (; complete < solved && (!has_lower || messages->last_row_consumed(complete)); ++complete) changed = true;
        if (changed) {
          idle.progressed();
        } else {
          idle.idle([&] {
            return "gw-wavefront " + (messages != nullptr ? messages->describe() : std::string("one rank")) + "; sweep " + std::to_string(t) + " of " +
                   std::to_string(timesteps) + ", column blocks received upper halo: " +
                   std::to_string(received_upper) + ", received lower halo: " + std::to_string(received_lower) +
                   ", first row consumed: " + std::to_string(first_row_free) + ", solved: " + std::to_string(solved) +
                   ", last row consumed: " + std::to_string(complete) + " (of " + std::to_string(blocks) + ")";
          });
        }
      }
    }
    // Every last row was consumed before its sweep completed, and no first row is sent after the
    // last sweep: nothing is in flight.
  }
};

std::unique_ptr<Solver> make_gw_wavefront_solver(const SolverContext& context) {
  return std::make_unique<GwWavefrontSolver>(context);
}

const VariantRegistration registration{Variant{
    .name = "gw-wavefront",
    .description = "ghostwire, a channel per column block, sweep by sweep (010)",
    .position = 5,
    .result_valid = true,
    .single_rank_only = false,
    .create = make_gw_wavefront_solver,
}};

}  // namespace
}  // namespace heat
