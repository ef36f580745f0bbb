// SPDX-License-Identifier: BSD-3-Clause
// The command line of gw-cloverleaf:
//   gw-cloverleaf [--exchange NAME[,NAME...]] [--sync p2p|global[,...]] [--rounds R] [--out FILE]
//                 [--json FILE] [--profile] [--quiet] [--end-step N] [DECK]
// Several exchanges or sync modes, or more than one round, make a side-by-side job: every
// (exchange, sync) combination runs once per round, each from a freshly generated problem.
//
// See docs/cloverleaf.md, "Using it".
#pragma once

#include <span>
#include <string>
#include <vector>

#include "halo.hpp"

namespace cloverleaf {

struct Options {
  std::string deck = "./clover.in";
  std::string exchange = "mpi";  // this run's exchange and sync: the first of the lists after parsing
  Sync sync = Sync::p2p;
  std::vector<std::string> exchanges{"mpi"};  // --exchange a,b,...: distinct names, in the order given
  std::vector<Sync> syncs{Sync::p2p};          // --sync p2p,global
  int rounds = 1;                              // --rounds R
  std::string out = "./clover.out";
  std::string json;      // also append the JSON line to this file
  bool profile = false;  // the profiler table, as profiler_on in the deck
  bool quiet = false;    // no per-step lines on standard output
  int end_step = 0;      // > 0: overrides the deck's end_step
  bool help = false;
};

// Throws UsageError naming the option and the value.
Options parse_options(std::span<char* const> arguments);
std::string usage_text();

// One run of a job: an (exchange, sync) combination in a round.
struct RunPlan {
  std::string exchange;
  Sync sync;
  int round;  // 1-based
};
// Every combination once per round, exchanges outer and syncs inner; round r (1-based) starts at
// combination (r - 1) mod count and wraps, so every combination takes every place in turn.
std::vector<RunPlan> run_plans(const Options& options);
// A job of more than one run: each run writes its own output file, `out` with
// ".<exchange>.<sync>.r<round>" before the extension (clover.out -> clover.mpi.p2p.r1.out).
bool side_by_side(const Options& options);
std::string run_output_file(const std::string& out, const RunPlan& run);

}  // namespace cloverleaf
