// SPDX-License-Identifier: BSD-3-Clause
// What `gw-bench halo` reports: one HaloResult per (case, implementation), printed as a row of a
// human table (cases x implementations, plus gw against the best MPI variant, the best peer and raw) and
// as one JSON line for scripts (bench/run_suite.py reads the JSON lines).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace gwbench::halo {

struct HaloResult {
  std::string case_name;
  std::string impl;
  std::string transport;  // gw only: "shm", "p2p", "shm+p2p" ...; empty otherwise
  double usec = 0;        // per exchange (slowest rank), median over the repetitions
  double usec_min = 0, usec_max = 0;
  long iterations = 0;    // exchanges per repetition
  int repeats = 0;        // measured: fewer than asked where --deadline cut them
  int repeats_asked = 0;
  std::uint64_t bytes_per_exchange = 0;  // ghost bytes received per exchange, all ranks together
  long messages = 0;                     // messages per exchange, all ranks together
  int neighbours = 0;                    // most neighbours of any rank
  // gw, forward: each rank's messages to other nodes per exchange (Plan::traffic()), by rank;
  // empty for the others and for --reverse.
  std::vector<long> internode_messages;
  // Each repetition's time per exchange, in order: the implementations of a case take turns within
  // every repetition, so scripts compare them repetition by repetition.
  std::vector<double> usec_per_repeat;
};

// The same for every result of a run.
struct HaloRun {
  std::string path;  // intra, emulated, multihost
  int ranks = 0, nodes = 0, hosts = 0;
  std::string mpi, verify;
  std::string direction;  // forward, or reverse (--reverse)
};

// {"bench":"halo","case":"2d-512-h1","impl":"gw","path":"intra","ranks":2,"usec":1.23,...,
//  "direction":"forward","usec_per_repeat":[...]}
std::string halo_json_line(const HaloResult& result, const HaloRun& run);

class HaloTable {
 public:
  explicit HaloTable(std::vector<std::string> implementations);
  void print_heading(std::FILE* out) const;
  // `row` holds one case's results (missing implementations print as "-").
  void print_row(std::FILE* out, const std::string& case_name, const std::vector<HaloResult>& row) const;

 private:
  std::vector<std::string> implementations_;
  bool has_gw_ = false, has_mpi_ = false, has_peer_ = false, has_raw_ = false;
};

// The fastest of a row's implementations that `among` accepts (is_mpi_exchanger, is_peer_exchanger),
// or null.
const HaloResult* fastest(const std::vector<HaloResult>& row, bool (*among)(std::string_view));

}  // namespace gwbench::halo
