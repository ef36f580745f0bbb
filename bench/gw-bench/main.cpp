// SPDX-License-Identifier: BSD-3-Clause
// gw-bench: ghostwire's benchmarks in one program, `gw-bench SUBCOMMAND [options]`, launched like
// every MPI program of the project: scripts/launch --path intra|emulated|multihost -n 2 -- gw-bench ...
//
// The table of subcommands and the shared frame live here: argument errors are reported before MPI
// starts; inside the job, a failed check or wait aborts the whole job with a message naming the
// rank, so a broken implementation can never end in a hang or a plausible-looking number.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ghostwire/error.hpp"
#include "message_stamp.hpp"
#include "run_context.hpp"
#include "subcommand.hpp"
#include "usage_error.hpp"

namespace gwbench {
namespace {

std::vector<Subcommand> subcommands() { return {latency_subcommand(), bandwidth_subcommand(), halo_subcommand()}; }

// Before MPI_Init we do not know our rank; launchers tell it in the environment. Only the first
// rank prints, so a usage error appears once, not once per rank.
bool first_rank_of_launch() {
  for (const char* variable : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (const char* value = std::getenv(variable)) return std::string(value) == "0";
  return true;
}

void print_usage(std::FILE* out) {
  std::fprintf(out,
               "usage: gw-bench SUBCOMMAND [options]     (gw-bench SUBCOMMAND --help for its options)\n"
               "Launch with at least 2 ranks, e.g. scripts/launch --path intra -n 2 -- gw-bench latency\n\n"
               "subcommands:\n");
  for (const Subcommand& s : subcommands()) std::fprintf(out, "  %-11s %s\n", s.name.c_str(), s.summary.c_str());
  std::fprintf(out,
               "\nOutput: a table, then one JSON line per result (see docs/benchmarks-howto.md).\n"
               "Environment: GHOSTWIRE_RANKS_PER_NODE, GHOSTWIRE_TRANSPORT, GHOSTWIRE_TIMEOUT (also the limit\n"
               "of the benchmark's own waits).\n");
}

bool asks_for_help(const std::string& arg) { return arg == "-h" || arg == "--help" || arg == "help"; }

int run_in_mpi(const Subcommand& subcommand, const Job& job, int& argc, char**& argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int status = 0;
  if (size < subcommand.minimum_ranks) {
    if (rank == 0)
      std::fprintf(stderr,
                   "gw-bench %s: needs at least %d MPI ranks (ranks 0 and 1 exchange messages, any others wait), "
                   "but this job has %d. Launch it as: scripts/launch -n 2 -- gw-bench %s\n",
                   subcommand.name.c_str(), subcommand.minimum_ranks, size, subcommand.name.c_str());
    MPI_Finalize();
    return 2;
  }
  try {
    RunContext context;
    status = job(context);
  } catch (const UsageError& e) {
    // Raised identically on every rank (it depends only on the arguments and the job's layout).
    if (rank == 0)
      std::fprintf(stderr, "gw-bench %s: %s\n(see gw-bench %s --help)\n", subcommand.name.c_str(), e.what(),
                   subcommand.name.c_str());
    status = 2;
  } catch (const VerificationError& e) {
    std::fprintf(stderr, "gw-bench %s: rank %d: verification failed: %s\n", subcommand.name.c_str(), rank, e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 3);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gw-bench %s: rank %d: %s\n", subcommand.name.c_str(), rank, e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}

}  // namespace
}  // namespace gwbench

int main(int argc, char** argv) {
  using namespace gwbench;
  const bool speak = first_rank_of_launch();
  if (argc < 2 || asks_for_help(argv[1])) {
    if (speak) print_usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string name = argv[1];
  const std::vector<Subcommand> table = subcommands();
  const Subcommand* chosen = nullptr;
  for (const Subcommand& s : table)
    if (s.name == name) chosen = &s;
  if (!chosen) {
    if (speak) {
      std::fprintf(stderr, "gw-bench: unknown subcommand '%s'; the subcommands are:", name.c_str());
      for (const Subcommand& s : table) std::fprintf(stderr, " %s", s.name.c_str());
      std::fprintf(stderr, " (gw-bench --help)\n");
    }
    return 2;
  }
  std::vector<std::string> args(argv + 2, argv + argc);
  for (const std::string& arg : args)
    if (asks_for_help(arg)) {
      if (speak)
        std::printf("usage: gw-bench %s %s\n%s\noptions:\n%s", chosen->name.c_str(), chosen->usage.c_str(),
                    chosen->summary.c_str(), chosen->options_help().c_str());
      return 0;
    }
  Job job;
  try {
    job = chosen->parse(args);
  } catch (const UsageError& e) {
    if (speak) std::fprintf(stderr, "gw-bench %s: %s\n(see gw-bench %s --help)\n", name.c_str(), e.what(), name.c_str());
    return 2;
  }
  return run_in_mpi(*chosen, job, argc, argv);
}
