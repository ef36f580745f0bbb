// SPDX-License-Identifier: BSD-3-Clause
// Measuring one case: build every implementation on it (collectively), verify each once, warm up
// and calibrate each, then run the repetitions with the implementations interleaved (so a drift of
// the machine hits all of them alike) and report the median. All ranks take part in every
// exchange; each exchange is one step of an application (rewrite the owned cells, exchange, use
// the ghosts: halo_measure.cpp), and a repetition's time is the slowest rank's sum of the timed
// parts of its steps. With --reverse the same, each step the reverse exchange's (reverse_check.hpp).
#pragma once

#include <string>
#include <vector>

#include "../deadline.hpp"
#include "halo_case.hpp"
#include "halo_options.hpp"
#include "halo_report.hpp"

namespace gwbench {
class RunContext;
}

namespace gwbench::halo {

// The size of a case over all ranks (collective).
struct CaseStats {
  std::uint64_t bytes_per_exchange = 0;  // ghost bytes received, all ranks
  long messages = 0;                     // all ranks
  int neighbours = 0;                    // most of any rank
};
CaseStats case_stats(const HaloCase& c);

// Collective over MPI_COMM_WORLD; every rank returns the same results. The repetitions stop early
// where `deadline` (begun for this case) says the next would not end within the case's share.
std::vector<HaloResult> measure_case(RunContext& context, const HaloOptions& options, const HaloCase& c,
                                     const CaseStats& stats, const std::vector<std::string>& implementations,
                                     Deadline& deadline);

// Rank 0's answer on every rank (collective over MPI_COMM_WORLD): the deadline's decisions are
// taken on one clock, so all ranks run the same repetitions.
bool rank0_decides(bool answer);

}  // namespace gwbench::halo
