// SPDX-License-Identifier: BSD-3-Clause
// The study: for every source and size, every implementation's copy checked once, then timed
// copies, the implementations taking turns within each repeat (the first place rotating), each
// after a cache flush. Rank 0 copies and times; the owners of the sources only wait.
#pragma once

#include <string>
#include <vector>

#include "copy_options.hpp"
#include "copy_variants.hpp"

namespace copybench {

struct CopyResult {
  std::string source;
  std::size_t bytes;
  std::string impl;
  std::vector<double> usec;  // one per repeat
};

struct StudyOutcome {
  std::vector<CopyResult> results;  // rank 0's
  std::vector<std::string> notes;   // sources skipped, and why
  long wrong_elements = 0;          // over all checked copies (on every rank, after the study)
};

// The rank that owns the source's range, or -1 (with `why`) when this job has none.
int source_owner(const gw::World& world, const std::string& source, std::string& why);

StudyOutcome run_study(const Options& options, gw::World& world, CopySources& sources);

}  // namespace copybench
