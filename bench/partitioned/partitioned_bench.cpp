// SPDX-License-Identifier: BSD-3-Clause
// gw-partitioned-bench: partitioned messages from threads, ghostwire's (Plan::pready/parrived)
// against MPI-4's partitioned communication (MPI_Psend_init, MPI_Pready, MPI_Parrived; MPICH 4.0
// has it, Open MPI 4.1 does not) and against one MPI_Isend per partition, on the same messages, in
// one job (docs/BENCHMARKS.md, "Partitioned messages"). Two ranks exchange a message of `bytes` in
// `partitions` partitions both ways; the team of each rank's OpenMP threads shares the partitions
// out (partition k to thread k % threads), fills each one and marks it ready, then waits for its
// partitions from the peer and checks them. Repetitions of the implementations are interleaved, and
// the medians and paired ratios are reported.
//
//   scripts/launch -n 2 --threads 2 --mpi mpich -- build-mpich/bench/partitioned/gw-partitioned-bench
#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "partitioned_exchange.hpp"

namespace gwpart {
namespace {

struct Options {
  std::vector<std::size_t> sizes{64, 1024, 16384, 262144, 4194304};
  std::vector<std::size_t> partitions{1, 4, 16};
  std::vector<std::string> impls;
  int repeats = 7;
  double min_time = 0.05;
};

[[noreturn]] void usage_error(int rank, const std::string& message) {
  if (rank == 0) std::fprintf(stderr, "gw-partitioned-bench: error: %s (see --help)\n", message.c_str());
  MPI_Finalize();
  std::exit(2);
}

std::vector<std::size_t> size_list(int rank, const std::string& text, const char* option) {
  std::vector<std::size_t> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    char* end = nullptr;
    const unsigned long long value = std::strtoull(item.c_str(), &end, 10);
    std::size_t scale = 1;
    if (end && (*end == 'K' || *end == 'k')) scale = 1024, ++end;
    else if (end && (*end == 'M' || *end == 'm')) scale = 1024 * 1024, ++end;
    if (item.empty() || !end || *end != '\0' || value == 0)
      usage_error(rank, std::string(option) + ": '" + item + "' is not a positive number (K and M allowed)");
    out.push_back(static_cast<std::size_t>(value) * scale);
    start = comma + 1;
  }
  return out;
}

const char* const help =
    "usage: gw-partitioned-bench [--sizes LIST] [--partitions LIST] [--impls LIST] [--repeats N] [--min-time S]\n"
    "  Two ranks exchange a message of each size (bytes, K/M allowed) in each number of partitions, both ways;\n"
    "  OMP_NUM_THREADS threads per rank share the partitions (scripts/launch --threads T).\n"
    "  --impls: gw, mpi-partitioned (MPI-4: MPICH), mpi-isend (one message per partition), gw-separate and\n"
    "           gw-combined (between nodes: partitions one by one, or in one message); default all this MPI\n"
    "           provides. --repeats: interleaved repetitions (default 7). --min-time: seconds per\n"
    "           measurement (default 0.05).\n"
    "  Prints a table, one JSON line per (size, partitions, impl) with the median, and paired ratios.\n";

Options parse(int argc, char** argv, int rank) {
  Options o;
  o.impls = available_implementations();
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      if (rank == 0) std::fputs(help, stdout);
      MPI_Finalize();
      std::exit(0);
    }
    if (i + 1 >= argc) usage_error(rank, arg + " needs a value");
    const std::string value = argv[++i];
    if (arg == "--sizes") o.sizes = size_list(rank, value, "--sizes");
    else if (arg == "--partitions") o.partitions = size_list(rank, value, "--partitions");
    else if (arg == "--repeats") o.repeats = std::max(1, std::atoi(value.c_str()));
    else if (arg == "--min-time") o.min_time = std::atof(value.c_str());
    else if (arg == "--impls") {
      o.impls.clear();
      std::size_t start = 0;
      while (start <= value.size()) {
        const std::size_t comma = std::min(value.find(',', start), value.size());
        o.impls.push_back(value.substr(start, comma - start));
        start = comma + 1;
      }
      for (const std::string& name : o.impls)
        if (!implementation_known(name))
          usage_error(rank, "--impls: unknown or unavailable implementation '" + name + "' (available: " +
                                join(available_implementations()) + ")");
    } else usage_error(rank, "unknown option " + arg);
  }
  if (!(o.min_time > 0)) usage_error(rank, "--min-time must be positive");
  return o;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// One (size, partitions) case: every implementation, repetitions interleaved; returns nothing,
// prints the table rows, JSON lines and ratios (rank 0).
void run_case(const Setup& setup, const Options& o, std::size_t bytes, std::size_t partitions) {
  std::vector<std::unique_ptr<PartitionedExchange>> impls;
  for (const std::string& name : o.impls) impls.push_back(make_exchange(name, setup, bytes, partitions));
  std::vector<long> iterations(impls.size(), 0);
  std::vector<std::vector<double>> seconds(impls.size());
  for (std::size_t i = 0; i < impls.size(); ++i) iterations[i] = impls[i]->calibrate(o.min_time);
  for (int r = 0; r < o.repeats; ++r)
    for (std::size_t k = 0; k < impls.size(); ++k) {
      const std::size_t i = (k + static_cast<std::size_t>(r)) % impls.size();  // the order rotates
      seconds[i].push_back(impls[i]->run(iterations[i]) / static_cast<double>(iterations[i]));
    }
  if (setup.rank != 0) return;
  for (std::size_t i = 0; i < impls.size(); ++i) {
    const double us = 1e6 * median(seconds[i]);
    std::printf("%10zu %10zu  %-16s %12.2f\n", bytes, partitions, o.impls[i].c_str(), us);
    std::string per_repeat;
    for (double s : seconds[i]) {
      if (!per_repeat.empty()) per_repeat += ',';
      per_repeat += std::to_string(1e6 * s);
    }
    std::printf("{\"bench\":\"partitioned\",\"impl\":\"%s\",\"path\":\"%s\",\"mpi\":\"%s\",\"ranks\":2,\"threads\":%d,"
                "\"bytes\":%zu,\"partitions\":%zu,\"us_per_exchange\":%.4f,\"us_per_repeat\":[%s],\"repeats\":%d,"
                "\"iterations\":%ld,\"verified\":true}\n",
                o.impls[i].c_str(), setup.path.c_str(), setup.mpi.c_str(), setup.threads, bytes, partitions, us,
                per_repeat.c_str(), o.repeats, iterations[i]);
  }
  for (std::size_t i = 1; i < impls.size(); ++i) {
    std::vector<double> ratios;
    for (int r = 0; r < o.repeats; ++r) ratios.push_back(seconds[0][r] / seconds[i][r]);
    const auto [low, high] = std::minmax_element(ratios.begin(), ratios.end());
    std::printf("ratio %s / %s = %.3f [%.3f-%.3f] at %zu bytes, %zu partitions\n", o.impls[0].c_str(),
                o.impls[i].c_str(), median(ratios), *low, *high, bytes, partitions);
  }
  std::fflush(stdout);
}

}  // namespace
}  // namespace gwpart

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const gwpart::Options options = gwpart::parse(argc, argv, rank);
  if (size != 2) gwpart::usage_error(rank, "runs on exactly 2 ranks, got " + std::to_string(size));
  if (provided < MPI_THREAD_MULTIPLE && omp_get_max_threads() > 1)
    gwpart::usage_error(rank, "MPI provides less than MPI_THREAD_MULTIPLE; threads cannot call MPI_Pready");
  int status = 0;
  try {
    const gwpart::Setup setup = gwpart::make_setup();
    if (rank == 0) {
      std::printf("gw-partitioned-bench: 2 ranks x %d thread(s), path %s, %s\n", setup.threads, setup.path.c_str(),
                  setup.mpi.c_str());
      std::printf("%10s %10s  %-16s %12s\n", "bytes", "partitions", "impl", "us/exchange");
    }
    for (std::size_t bytes : options.sizes)
      for (std::size_t partitions : options.partitions)
        if (bytes % (partitions * sizeof(double)) == 0) gwpart::run_case(setup, options, bytes, partitions);
    if (rank == 0) std::printf("every received partition verified\n");
  } catch (const std::exception& error) {
    std::fprintf(stderr, "gw-partitioned-bench: rank %d: %s\n", rank, error.what());
    status = 1;
  }
  MPI_Finalize();
  return status;
}
