// SPDX-License-Identifier: BSD-3-Clause
// gw-copy-bench's output on rank 0: a table per source (median microseconds and GB/s per
// implementation, the fraction of the memcpy ceiling) and one JSON line per (source, size, impl).
#pragma once

#include <vector>

#include "copy_study.hpp"

namespace copybench {

double median(std::vector<double> values);
void print_table(const std::vector<CopyResult>& results, const std::vector<std::string>& impls);
void print_json(const std::vector<CopyResult>& results, int ranks, int nodes);

}  // namespace copybench
