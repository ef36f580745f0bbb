// SPDX-License-Identifier: BSD-3-Clause
// Command-line options of `gw-bench halo`, parsed before MPI starts, identically on every rank, so a
// mistake is reported once and no job is started.
#pragma once

#include <string>
#include <vector>

#include "../deadline.hpp"
#include "halo_case.hpp"

namespace gwbench::halo {

enum class HaloVerify { ghosts, every };
enum class HaloFormat { table, json, both };

struct HaloOptions {
  std::vector<CaseSpec> cases;               // in the order given
  std::vector<std::string> implementations;  // empty: every one that can run in the job
  PointCloudOptions point_cloud;
  double min_time = 0.25;  // seconds per repetition of a (case, implementation) (adaptive count)
  long iterations = 0;     // > 0: a fixed count instead
  int repeats = 5;         // the median is reported
  long warmup = 10;        // exchanges before calibrating
  HaloVerify verify = HaloVerify::ghosts;
  // For tests of the verification: timed step N (from 1) of every repetition of the first
  // implementation leaves out the exchange on every rank, so its ghosts stay stale; 0: never.
  long skip_exchange = 0;
  HaloFormat format = HaloFormat::both;
  // --reverse: time the reverse exchange with sum (ghosts back to their owners, added) instead,
  // on the implementations that have one (reverse_unsupported_reason).
  bool reverse = false;
  Deadline deadline;  // --deadline: fewer repetitions (never fewer than one) to end in time
};

// Throws UsageError for anything it does not understand.
HaloOptions parse_halo_options(const std::vector<std::string>& args);
std::string halo_options_help();

}  // namespace gwbench::halo
