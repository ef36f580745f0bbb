// SPDX-License-Identifier: BSD-3-Clause
// The end-of-run report: a table for people and one JSON line for scripts, printed by rank 0.
//
// time_per_step_s is the slowest rank's wall time for the time stepping divided by the steps done;
// elements_per_s = (cells per rank x ranks x variables) / time_per_step_s, the reference study's
// measure. The per-phase times are averages over ranks (with the maximum), per step.
//
// See docs/minighost.md, "Semantics".
#pragma once

#include <mpi.h>

#include <string>

#include "decomposition.hpp"
#include "options.hpp"
#include "report_output.hpp"
#include "simulation.hpp"

namespace minighost {

// Collective: reduces the timings of all ranks, then rank 0 writes the table and the JSON line of
// `variant`'s run. With round times (the side-by-side mode), the time per step is their sum over
// the steps: each is the slowest rank's time of the round, between barriers.
void report_summary(const Options& options, const Decomposition& decomposition, const std::string& variant,
                    const RunResult& result, MPI_Comm comm, ReportOutput& output);

}  // namespace minighost
