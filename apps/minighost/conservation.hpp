// SPDX-License-Identifier: BSD-3-Clause
// Conservation: the verification of miniGhost. For every variable, the heat on the grid plus the
// heat that left through the physical boundary (gsum) must equal the heat put in (source_total:
// the initial grid plus every spike inserted so far), within a relative tolerance.
// See docs/minighost.md, "Semantics".
#pragma once

#include <mpi.h>

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "field_view.hpp"

namespace minighost {

struct VariableTotals {
  double source_total = 0.0;
  double interior_sum = 0.0;  // all owned cells of all ranks
  double flux_out = 0.0;      // accumulated over the run
  double gsum() const { return interior_sum + flux_out; }
  double relative_error() const;  // |source_total - gsum| / source_total, the reference's error
};

// The reference's tolerance 1.0 / (10.0**error_tol): single precision arithmetic (default REALs,
// the power by repeated squaring as gfortran does it), then widened to double.
double conservation_tolerance(int error_tol);

// Sum of the owned cells of one variable on this rank (in partial sums, see lane_sum.hpp; the
// stencil returns the same sum of the cells it updated).
double local_interior_sum(const FieldView& field);

// Sums values element-wise over all ranks, in place (the variant's reduction: MPI_Iallreduce, or
// ghostwire's in shared memory), in two halves: start may return before the other ranks arrive;
// finish leaves the result in the values, the same bits on every rank.
struct GlobalSum {
  std::function<void(std::span<double>)> start;
  std::function<void()> finish;
};

class ConservationLedger {
 public:
  ConservationLedger(int num_vars, GlobalSum global_sum);

  // `heat` is the same on every rank (a spike value, or the global initial sum).
  void add_source(int variable, double heat) { source_total_[static_cast<std::size_t>(variable)] += heat; }
  // `heat` is this rank's share (its boundary outflow).
  void add_local_outflow(int variable, double heat) { local_flux_out_[static_cast<std::size_t>(variable)] += heat; }

  // Collective, one reduction for all the listed variables: their global totals, in the same order.
  // `local_interior_sums[i]` belongs to `variables[i]`.
  std::vector<VariableTotals> global_totals(std::span<const int> variables, std::span<const double> local_interior_sums);

  // The same in two halves, so that the ranks' meeting can ride on another one (the next halo
  // exchange): start takes this rank's values and the source totals as they are now; finish
  // returns the totals. One reduction at a time.
  void start_global_totals(std::span<const int> variables, std::span<const double> local_interior_sums);
  std::vector<VariableTotals> finish_global_totals();

 private:
  GlobalSum global_sum_;
  std::vector<double> sums_;               // reduced in place: no allocation per step
  std::vector<double> reduced_sources_;    // source totals of the reduced variables when it started
  std::vector<double> source_total_;
  std::vector<double> local_flux_out_;
};

// "diffusion step S var V source_total X gsum X flux_out X interior_sum X" (%.17g, 1-based V), with
// " spike P" appended when the run has several spikes (S counts the steps of the current spike).
std::string report_line(int step, int spike, int num_spikes, int variable, const VariableTotals& totals);

}  // namespace minighost
