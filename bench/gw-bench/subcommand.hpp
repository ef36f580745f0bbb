// SPDX-License-Identifier: BSD-3-Clause
// gw-bench is one program with subcommands, so every comparison runs side by side in one MPI job.
// A subcommand parses its arguments before MPI starts (a usage error needs no job) and returns the
// job to run. To add one (halo, ...): write a `Subcommand xxx_subcommand()` in its own file and
// list it in main.cpp's table.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace gwbench {

class RunContext;

using Job = std::function<int(RunContext&)>;  // returns the exit status

struct Subcommand {
  std::string name;
  std::string summary;  // one line for `gw-bench --help`
  std::string usage;    // arguments, for `gw-bench NAME --help`
  // Throws UsageError for a bad argument.
  std::function<Job(const std::vector<std::string>& args)> parse;
  std::function<std::string()> options_help;
  int minimum_ranks = 2;
};

Subcommand latency_subcommand();
Subcommand bandwidth_subcommand();
Subcommand halo_subcommand();  // halo/halo_subcommand.cpp

}  // namespace gwbench
