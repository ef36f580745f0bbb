// SPDX-License-Identifier: BSD-3-Clause
// What a message benchmark reports: one Result per (size, implementation), printed as a row of a
// human table and as one JSON line for scripts (bench/run_suite.py reads the JSON lines).
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace gwbench {

struct Result {
  std::string bench;      // "latency", "bandwidth"
  std::string impl;       // "gw", "gw-p2p", "gw-rma", "mpi-sendrecv", "mpi-put-flag", "raw"
  std::string transport;  // gw only: "shm", "p2p", "rma"; empty otherwise
  std::size_t bytes = 0;
  double usec = 0;      // time per one-way message, median over the repetitions
  double usec_min = 0;  // fastest and slowest repetition
  double usec_max = 0;
  double mbps = 0;      // bytes / usec (10^6 bytes per second)
  long iterations = 0;  // per repetition: round trips (latency) or windows (bandwidth)
  int repeats = 0;      // measured: fewer than asked where --deadline cut them
  int repeats_asked = 0;
  int window = 0;       // bandwidth: messages per window; 0 for latency
  // Each repetition's time per message, in repetition order: the implementations of a size take
  // turns within every repetition, so scripts compare them repetition by repetition.
  std::vector<double> usec_per_repeat;
};

// The same for every result of a run.
struct RunDescription {
  std::string path;  // intra, emulated, multihost
  int ranks = 0;
  int nodes = 0;  // ghostwire nodes (emulated or real)
  int hosts = 0;  // hosts as MPI sees them
  std::string mpi;
  std::string verify;
};

// {"bench":"latency","impl":"gw","path":"intra","bytes":8,"ranks":2,"usec":0.21,"mbps":38.1,...}
std::string json_line(const Result& result, const RunDescription& run);

// The table: one row per size, one column per implementation, then gw-vs-raw and
// gw-vs-mpi-sendrecv ratio columns for every ghostwire implementation present.
class ResultTable {
 public:
  // `bandwidth`: show MB/s (else usec); ratios are always of the shown values.
  ResultTable(std::vector<std::string> implementations, bool bandwidth);
  void print_heading(std::FILE* out) const;
  // `row` holds this size's results (any order; missing implementations print as "-").
  void print_row(std::FILE* out, std::size_t bytes, const std::vector<Result>& row) const;

 private:
  struct RatioColumn {
    std::string numerator, denominator, title;
  };
  double shown(const Result& result) const { return bandwidth_ ? result.mbps : result.usec; }

  std::vector<std::string> implementations_;
  std::vector<RatioColumn> ratios_;
  bool bandwidth_;
};

}  // namespace gwbench
