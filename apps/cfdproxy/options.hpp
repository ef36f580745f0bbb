// SPDX-License-Identifier: BSD-3-Clause
// gw-cfdproxy's command line.
// See docs/cfdproxy.md, "Running it".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cfdproxy {

enum class PartitionKind { original, metis };
enum class InitialField { one, hash };

struct Options {
  std::string mesh;                      // "generated:N" or the domain files' prefix or directory
  bool mesh_given = false;
  PartitionKind partition = PartitionKind::metis;
  InitialField init = InitialField::one;
  std::vector<std::string> variants{"gw"};
  int threads = 1;                       // --threads, else OMP_NUM_THREADS, else 1
  int iterations = 100;
  int rounds = 1;
  int warmup = 2;                        // untimed iterations of each variant before the rounds
  std::vector<int> report_parts;         // --partition-report: no kernel, only the report
  std::string output;                    // also write checksums and JSON lines here (rank 0)
  bool check_ghosts = false;             // compare every ghost with its owner after the run
  bool help = false;
};

// Throws UsageError naming the option and the value.
Options parse_options(int argc, char** argv);
// The thread count the command line asks for, before MPI is initialised (the MPI thread level
// depends on it): like parse_options, but 1 where parse_options would fail (it reports that).
int threads_before_parsing(int argc, char** argv);
std::string usage_text(std::string_view program);
const char* partition_name(PartitionKind kind);
const char* init_name(InitialField init);

}  // namespace cfdproxy
