// SPDX-License-Identifier: BSD-3-Clause
// What a run prints: a header, one human result line and one JSON line for scripts.
// See docs/heat.md, "Output".
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace heat {

struct RunReport {
  std::string_view variant;
  int ranks;
  int threads;                   // OpenMP threads per rank (1 for the variants without threads)
  const char* mpi_thread_level;  // what MPI provides: "MPI_THREAD_FUNNELED", ...
  int rows;
  int cols;
  int bx;
  int by;
  int timesteps;
  int heat_sources;
  std::string sources_from;  // the config file, or "default"
  bool result_valid;
  double time_s;  // between barriers around the sweeps (the median, for a summary)
  int run = 1;    // which run of this configuration (1-based); 0: the median of `runs` runs
  int runs = 1;

  double mupdates_per_s() const;
};

// "gw-heat mpi-nbuffer: 1024 x 1024 interior, 16 x 16 tiles, 2 rank(s) (512 rows each), ..."
void print_header(std::FILE* out, const RunReport& report);
// "rows 1024, cols 1024, block 16x16, ranks 2, threads 1, timesteps 100, time 0.501234 s, 209.23 Mupdates/s"
void print_result_line(std::FILE* out, const RunReport& report);
// {"app":"heat","variant":...,"mupdates_per_s":...} on one line. Also "bench":"heat" and "impl"
// (the variant) for bench/run_suite.py, "threads" and "mpi_thread_level", and "run" and "runs"; a
// median line has "statistic":"median" instead of "run".
void print_json_line(std::FILE* out, const RunReport& report);
// The medians of several configurations: a row per variant, a column per tile size.
void print_summary_table(std::FILE* out, const std::vector<RunReport>& medians);

}  // namespace heat
