// SPDX-License-Identifier: BSD-3-Clause
// Command-line options shared by the message benchmarks (latency, bandwidth). Parsed before MPI
// starts, identically on every rank, so a mistake is reported once and no job is started.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "deadline.hpp"
#include "message_stamp.hpp"

namespace gwbench {

enum class OutputFormat { table, json, both };

struct MessageOptions {
  std::vector<std::size_t> sizes;            // bytes, ascending
  std::vector<std::string> implementations;  // empty: every one that applies to the path
  double min_time = 0.25;  // seconds each repetition of a point should take (adaptive count)
  long iterations = 0;     // > 0: a fixed count instead
  int repeats = 5;         // the median is reported
  long warmup = 10;        // iterations before calibrating
  int window = 64;         // bandwidth: messages per window
  Verify verify = Verify::ends;
  OutputFormat format = OutputFormat::both;
  Deadline deadline;       // --deadline: fewer repetitions (never fewer than one) to end in time
};

// `streaming` enables --window. Throws UsageError for anything it does not understand.
MessageOptions parse_message_options(const std::vector<std::string>& args, bool streaming);
std::string message_options_help(bool streaming);

}  // namespace gwbench
