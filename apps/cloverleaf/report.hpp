// SPDX-License-Identifier: BSD-3-Clause
// What a run reports besides the summaries: the header (stdout and clover.out, with the deck echoed
// into clover.out as the reference does), the closing lines, the reference's profiler table, and
// one JSON line for scripts.
// See docs/cloverleaf.md, "Output".
#pragma once

#include <mpi.h>

#include <string>

#include "decompose.hpp"
#include "deck.hpp"
#include "hydro.hpp"
#include "options.hpp"
#include "output.hpp"
#include "profile.hpp"

namespace cloverleaf {

struct RunInfo {
  const Deck& deck;
  const Options& options;
  const Decomposition& decomposition;
  int nodes = 1;  // ghostwire's node count (emulated nodes count as nodes)
  int round = 0;  // > 0: the run's round in a side-by-side job (a "round" field in the JSON line)
};

void write_header(Output& out, const RunInfo& info);
void write_closing(Output& out, const RunResult& result);

// The reference reports the profile of the rank whose kernels took longest (collective; the result
// is valid on rank 0, `rank` says whose it is).
Profile slowest_profile(const Profile& mine, MPI_Comm comm, int& rank);
// hydro.f90's table: time and percentage of the wall clock per kernel, total, the rest.
std::string profile_table(const Profile& p, double wall);

std::string json_line(const RunInfo& info, const RunResult& result, const Profile& p, int profile_rank,
                      long long halo_updates);

}  // namespace cloverleaf
