// SPDX-License-Identifier: BSD-3-Clause
// Simulation: the reference's time stepping, shared by every variant.
//
//   for each spike: insert it, then num_tsteps times:
//     BSPMA: exchange all variables' halos; then per variable: flux out, stencil update
//     SVAF:  per variable: exchange its halo, flux out, stencil update
//     conservation: every step for every variable (percent_sum > 0 or debug_grid, like the
//     reference) or at report steps only (percent_sum 0); a report line per variable at every
//     report step; the run stops at the first failed check.
//   finally one more check of every variable, as the reference does.
//
// A check's global sums are started after its step and finished after the next step's (first)
// halo exchange, before any cell is updated: with a split-phase reduction (gw's) the ranks then
// meet once per step instead of twice, and the reduction costs no wait of its own. The checks,
// their report lines and the step at which a failure stops the run are the reference's; only the
// exchange before the stop is extra. The last check of a spike is finished before the next spike
// is inserted.
//
// See docs/minighost.md, "Semantics".
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "conservation.hpp"
#include "decomposition.hpp"
#include "flux_out.hpp"
#include "initial_state.hpp"
#include "options.hpp"
#include "report_output.hpp"
#include "variant.hpp"

namespace minighost {

// Seconds this rank spent in each part of the time stepping.
struct PhaseSeconds {
  double exchange = 0.0;  // halo exchanges
  double compute = 0.0;   // flux out and stencil updates
  double check = 0.0;     // interior sums, their reduction, the checks and report lines
};

struct RunResult {
  bool conservation_enforced = true;  // false when the variant leaves halos empty (commfree, > 1 rank)
  bool conservation_held = true;      // every check within tolerance
  std::string failure;                // the first failed check, for the error message
  int checks = 0;                     // (step, variable) pairs checked
  double largest_relative_error = 0.0;
  double tolerance = 0.0;
  int steps = 0;                      // time steps done, over all spikes
  double loop_seconds = 0.0;          // this rank's wall time for the whole time stepping
  PhaseSeconds phases;
  // Side-by-side mode (main.cpp): the slowest rank's seconds for each round of this variant.
  std::vector<double> round_seconds;
  std::vector<VariableTotals> final_totals;  // after the last step, every variable
};

class Simulation {
 public:
  Simulation(const Options& options, const Decomposition& decomposition, Variant& variant, MPI_Comm comm,
             ReportOutput& output);
  // Collective: the whole run, begin() + advance(total_steps()) + end().
  RunResult run();

  // The run in pieces, so several variants can take turns (main.cpp's side-by-side mode). All
  // collective. begin() sets the initial state; advance(n) does up to n more steps and returns false
  // once the run is over (every step done, or a failed check); end() does the final check.
  void begin();
  bool advance(int steps);
  RunResult end();
  int total_steps() const { return options_.num_spikes * options_.num_tsteps; }
  // Seconds this rank spent in advance() so far.
  double stepping_seconds() const { return result_.loop_seconds; }

 private:
  void step();  // one time step of the current spike
  void update_variable(int variable, RunResult& result);
  // This rank's sum of variable v's owned cells.
  double interior_sum(int v) const;
  // Starts the reduction of a check of every variable after step `step`; finish_check completes it,
  // prints the report lines if `report`, and returns false on a failed check (true if no check is
  // under way).
  void start_check(int step, int spike, bool report, RunResult& result);
  bool finish_check(RunResult& result);

  const Options& options_;
  const Decomposition& decomposition_;
  Variant& variant_;
  MPI_Comm comm_;
  ReportOutput& output_;
  ConservationLedger ledger_;
  BoundaryOutflow outflow_;  // weights worked out once for this rank's block
  std::vector<FieldView> fields_;
  std::vector<double> work_;
  // Per variable: the sum of its owned cells as the last update left them, and whether nothing
  // (a spike) changed them since, so the check can use it instead of summing the grid again.
  std::vector<double> updated_sums_;
  std::vector<char> updated_sum_current_;
  std::vector<int> all_variables_;
  struct PendingCheck {
    bool active = false;
    int step = 0, spike = 0;
    bool report = false;
  } pending_check_;
  // Where the run stands: spike_ (0-based) and the steps of it done so far.
  RunResult result_;
  std::vector<Spike> spikes_;
  int spike_ = 0, step_ = 0;
  bool held_ = true, over_ = false;
  bool check_every_step_ = true;
  int report_every_ = 1;
};

}  // namespace minighost
