// SPDX-License-Identifier: BSD-3-Clause
// gw-cfdproxy's results: a human table of the phases per variant and one JSON line per variant.
// See docs/cfdproxy.md, "Running it".
#pragma once

#include <string>
#include <vector>

#include "checksums.hpp"
#include "options.hpp"
#include "solver.hpp"

namespace cfdproxy {

struct VariantResult {
  std::string variant;
  std::vector<PhaseTimes> rounds;
  Checksums checksums;
  PhaseTimes median() const;  // phase by phase
};

struct RunDescription {
  std::string mesh;
  long long points = 0, faces = 0;
  int ranks = 0, threads = 1;
  std::string partition, init;
  int iterations = 0, rounds = 0;
};

std::string phase_table(const std::vector<VariantResult>& results);
// Median over rounds of the per-round ratio of total times (a over b).
double median_round_ratio(const VariantResult& a, const VariantResult& b);
std::string json_line(const RunDescription& run, const VariantResult& result);

}  // namespace cfdproxy
