// SPDX-License-Identifier: BSD-3-Clause
// The conservation check (conservation.hpp): the tolerance, the interior sums in fixed lanes
// (lane_sum.hpp) and the report line (see docs/minighost.md, "Semantics", Conservation).
#include "conservation.hpp"

#include <cmath>
#include <cstdio>

#include "lane_sum.hpp"

namespace minighost {

double VariableTotals::relative_error() const { return std::fabs(source_total - gsum()) / source_total; }

double conservation_tolerance(int error_tol) {
  // x**n for integer n in gfortran: square-and-multiply in the type of x (here REAL(4)).
  float base = 10.0f;
  float power = (error_tol % 2) ? base : 1.0f;
  for (unsigned n = static_cast<unsigned>(error_tol) >> 1; n != 0; n >>= 1) {
    base *= base;
    if (n % 2) power *= base;
  }
  return static_cast<double>(1.0f / power);
}

double local_interior_sum(const FieldView& f) {
  // Rarely needed (the stencil returns this sum of the cells it updated), so kept simple: row sums
  // of the owned cells, added in order.
  double sum = 0.0;
  for (int k = 1; k <= f.nz; ++k) {
    for (int j = 1; j <= f.ny; ++j) sum += dense_sum(f.row(j, k) + 1, static_cast<std::size_t>(f.nx));
  }
  return sum;
}

ConservationLedger::ConservationLedger(int num_vars, GlobalSum global_sum)
    : global_sum_(std::move(global_sum)),
      source_total_(static_cast<std::size_t>(num_vars), 0.0),
      local_flux_out_(static_cast<std::size_t>(num_vars), 0.0) {}

std::vector<VariableTotals> ConservationLedger::global_totals(std::span<const int> variables,
                                                              std::span<const double> local_interior_sums) {
  start_global_totals(variables, local_interior_sums);
  return finish_global_totals();
}

void ConservationLedger::start_global_totals(std::span<const int> variables,
                                             std::span<const double> local_interior_sums) {
  const std::size_t n = variables.size();
  sums_.resize(2 * n);
  reduced_sources_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t v = static_cast<std::size_t>(variables[i]);
    sums_[i] = local_interior_sums[i];
    sums_[n + i] = local_flux_out_[v];
    reduced_sources_[i] = source_total_[v];
  }
  global_sum_.start(std::span<double>(sums_));
}

std::vector<VariableTotals> ConservationLedger::finish_global_totals() {
  global_sum_.finish();
  const std::size_t n = reduced_sources_.size();
  std::vector<VariableTotals> totals(n);
  for (std::size_t i = 0; i < n; ++i) {
    totals[i].source_total = reduced_sources_[i];
    totals[i].interior_sum = sums_[i];
    totals[i].flux_out = sums_[n + i];
  }
  return totals;
}

std::string report_line(int step, int spike, int num_spikes, int variable, const VariableTotals& t) {
  char line[320];
  std::snprintf(line, sizeof line,
                "diffusion step %d var %d source_total %.17g gsum %.17g flux_out %.17g interior_sum %.17g", step,
                variable + 1, t.source_total, t.gsum(), t.flux_out, t.interior_sum);
  std::string text = line;
  if (num_spikes > 1) text += " spike " + std::to_string(spike + 1);
  return text;
}

}  // namespace minighost
