// SPDX-License-Identifier: BSD-3-Clause
// Simulation (simulation.hpp): the reference's time stepping over a Variant, with the conservation
// check split around the next step's exchange (see docs/minighost.md, "Semantics", A time step).
#include "simulation.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "initial_state.hpp"
#include "stencil.hpp"

namespace minighost {

Simulation::Simulation(const Options& options, const Decomposition& decomposition, Variant& variant, MPI_Comm comm,
                       ReportOutput& output)
    : options_(options),
      decomposition_(decomposition),
      variant_(variant),
      comm_(comm),
      output_(output),
      ledger_(options.num_vars, GlobalSum{[&variant, comm](std::span<double> values) { variant.start_global_sum(values, comm); },
                                          [&variant] { variant.finish_global_sum(); }}),
      outflow_(options.stencil, decomposition),
      all_variables_(static_cast<std::size_t>(options.num_vars)) {
  std::iota(all_variables_.begin(), all_variables_.end(), 0);
  updated_sums_.assign(static_cast<std::size_t>(options.num_vars), 0.0);
  updated_sum_current_.assign(static_cast<std::size_t>(options.num_vars), 0);
  for (int v = 0; v < options.num_vars; ++v) fields_.push_back(variant.variable(v));
  std::size_t work = 0;
  for (const FieldView& field : fields_) work = std::max(work, stencil_work_elements(field));
  work_.resize(work);
}

void Simulation::update_variable(int v, RunResult& result) {
  const double start = MPI_Wtime();
  const FieldView& field = fields_[static_cast<std::size_t>(v)];
  // Flux first: it is the share of the old values that the update sends out of the domain.
  ledger_.add_local_outflow(v, outflow_(field));
  updated_sums_[static_cast<std::size_t>(v)] = apply_stencil(options_.stencil, field, work_.data());
  updated_sum_current_[static_cast<std::size_t>(v)] = 1;
  result.phases.compute += MPI_Wtime() - start;
}

double Simulation::interior_sum(int v) const {
  const std::size_t i = static_cast<std::size_t>(v);
  return updated_sum_current_[i] ? updated_sums_[i] : local_interior_sum(fields_[i]);
}

void Simulation::start_check(int step, int spike, bool report, RunResult& result) {
  const double start = MPI_Wtime();
  std::vector<double> local_sums;
  local_sums.reserve(all_variables_.size());
  for (int v : all_variables_) local_sums.push_back(interior_sum(v));
  ledger_.start_global_totals(all_variables_, local_sums);
  pending_check_ = PendingCheck{true, step, spike, report};
  result.phases.check += MPI_Wtime() - start;
}

bool Simulation::finish_check(RunResult& result) {
  if (!pending_check_.active) return true;
  const double start = MPI_Wtime();
  const PendingCheck check = pending_check_;
  pending_check_.active = false;
  // All ranks get the same totals from the reduction, so all decide the same way and stop together.
  const std::vector<VariableTotals> totals = ledger_.finish_global_totals();
  bool held = true;
  for (std::size_t i = 0; i < totals.size(); ++i) {
    const int variable = all_variables_[i];
    const double error = totals[i].relative_error();
    ++result.checks;
    result.largest_relative_error = std::max(result.largest_relative_error, error);
    const bool failed = !(error <= result.tolerance);  // NaN fails too
    if (check.report || (failed && result.conservation_enforced)) {
      output_.line(report_line(check.step, check.spike, options_.num_spikes, variable, totals[i]));
    }
    if (failed && result.conservation_enforced && held) {
      char message[256];
      std::snprintf(message, sizeof message,
                    "conservation check failed at step %d of spike %d, variable %d: |source_total - gsum| / "
                    "source_total = %.6g exceeds the tolerance %.3g (--error_tol %d)",
                    check.step, check.spike + 1, variable + 1, error, result.tolerance, options_.error_tol);
      result.failure = message;
      result.conservation_held = false;
      held = false;
    }
  }
  result.phases.check += MPI_Wtime() - start;
  return held;
}

void Simulation::begin() {
  result_ = RunResult{};
  result_.tolerance = conservation_tolerance(options_.error_tol);
  result_.conservation_enforced = variant_.fills_halos();

  // Initial grid: the same value in every owned cell (0 with --debug_grid 1), counted as source.
  const double start_value = initial_cell_value(options_, decomposition_);
  const auto& b = decomposition_.block();
  const double local_initial = start_value * (static_cast<double>(b[x]) * b[y] * b[z]);
  double global_initial = 0.0;
  MPI_Allreduce(&local_initial, &global_initial, 1, MPI_DOUBLE, MPI_SUM, comm_);
  for (int v = 0; v < options_.num_vars; ++v) {
    fill_owned_cells(fields_[static_cast<std::size_t>(v)], start_value);
    ledger_.add_source(v, global_initial);
  }
  spikes_ = make_spikes(options_, decomposition_);

  // The reference sums every variable every step unless percent_sum is 0 (its per-variable random
  // choice compares a number in [0,1) with the percentage, so 1..100 all select every variable), and
  // always in debug_grid mode.
  check_every_step_ = options_.percent_sum > 0 || options_.debug_grid == 1;
  report_every_ = options_.report_diffusion == 0 ? options_.num_tsteps : options_.report_diffusion;
  spike_ = step_ = 0;
  held_ = true;
  over_ = false;
  MPI_Barrier(comm_);  // everyone starts the clock together
}

void Simulation::step() {
  if (step_ == 0) {  // a new spike: insert it before its first step
    for (int v = 0; v < options_.num_vars; ++v) {
      insert_spike(spikes_[static_cast<std::size_t>(spike_)], v, fields_[static_cast<std::size_t>(v)], decomposition_);
      updated_sum_current_[static_cast<std::size_t>(v)] = 0;
      ledger_.add_source(v, spikes_[static_cast<std::size_t>(spike_)].values[static_cast<std::size_t>(v)]);
    }
  }
  ++step_;
  // The previous step's check is finished after this step's first exchange (see simulation.hpp).
  if (options_.comm_method == CommMethod::bspma) {
    const double start = MPI_Wtime();
    variant_.exchange_all_variables();
    result_.phases.exchange += MPI_Wtime() - start;
    held_ = finish_check(result_);
    for (int v = 0; v < options_.num_vars && held_; ++v) update_variable(v, result_);
  } else {
    for (int v = 0; v < options_.num_vars && held_; ++v) {
      const double start = MPI_Wtime();
      variant_.exchange_variable(v);
      result_.phases.exchange += MPI_Wtime() - start;
      if (v == 0) held_ = finish_check(result_);
      if (held_) update_variable(v, result_);
    }
  }
  if (!held_) {
    over_ = true;
    return;
  }
  ++result_.steps;
  const bool report = step_ % report_every_ == 0;
  if (check_every_step_ || report) start_check(step_, spike_, report, result_);
  if (step_ == options_.num_tsteps) {
    held_ = finish_check(result_);  // before the next spike changes the source totals
    step_ = 0;
    ++spike_;
    over_ = !held_ || spike_ == options_.num_spikes;
  }
}

bool Simulation::advance(int steps) {
  const double start = MPI_Wtime();
  for (int done = 0; done < steps && !over_; ++done) step();
  result_.loop_seconds += MPI_Wtime() - start;
  return !over_;
}

RunResult Simulation::end() {
  // A run stopped by a failed check leaves no check pending; one cut short leaves its last.
  if (held_ && !over_) held_ = finish_check(result_);
  RunResult& result = result_;
  // The reference's final check of every variable, whether or not the last step was checked.
  std::vector<double> local_sums;
  for (int v : all_variables_) local_sums.push_back(interior_sum(v));
  result.final_totals = ledger_.global_totals(all_variables_, local_sums);
  if (held_ && result.conservation_enforced) {
    for (std::size_t v = 0; v < result.final_totals.size(); ++v) {
      const double error = result.final_totals[v].relative_error();
      result.largest_relative_error = std::max(result.largest_relative_error, error);
      if (!(error <= result.tolerance)) {
        char message[200];
        std::snprintf(message, sizeof message,
                      "conservation check failed at the end of the run, variable %zu: relative error %.6g exceeds "
                      "the tolerance %.3g (--error_tol %d)",
                      v + 1, error, result.tolerance, options_.error_tol);
        result.failure = message;
        result.conservation_held = false;
        break;
      }
    }
  }
  return result;
}

RunResult Simulation::run() {
  begin();
  advance(total_steps());
  return end();
}

}  // namespace minighost
