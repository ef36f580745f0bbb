// SPDX-License-Identifier: BSD-3-Clause
// The measurement procedure shared by latency and bandwidth: for every size, warm up and calibrate
// each implementation, then run the repetitions with the implementations interleaved (so drift of
// the machine hits all of them alike), and report the median.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "message_options.hpp"
#include "messenger.hpp"
#include "run_context.hpp"

namespace gwbench {

// Runs `count` iterations of a benchmark with one messenger; collective over ranks 0 and 1.
// Returns the seconds rank 0 measured (rank 1 returns anything).
using Kernel = std::function<double(Messenger&, std::size_t bytes, long count)>;

struct SweepSpec {
  std::string bench;              // "latency", "bandwidth": the JSON `bench` field
  std::string what;               // heading: what the table shows
  bool bandwidth = false;         // the table shows MB/s instead of usec
  double messages_per_iteration;  // one-way messages per kernel iteration: 2 (ping-pong) or W
  int window = 0;                 // for the report; 0 for ping-pong
  SlotLayout layout;
  Kernel kernel;
};

// Everything after the RunContext: choose and create the implementations, measure, print.
// Returns the exit status.
int run_message_sweep(RunContext& context, const MessageOptions& options, const SweepSpec& spec);

}  // namespace gwbench
