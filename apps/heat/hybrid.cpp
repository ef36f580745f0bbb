// SPDX-License-Identifier: BSD-3-Clause
// HybridContext (hybrid.hpp): the threads of a rank, whether ranks x threads oversubscribe the
// machine, the timeout of every wait, and how a thread ends the job on an error (see docs/heat.md,
// "The hybrid variants").
#include "hybrid.hpp"

#include <ghostwire/error.hpp>
#include <ghostwire/settings.hpp>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <vector>

#include "usage_error.hpp"

namespace heat {
namespace {

// The kernel's boot id names the machine, also across the UTS namespaces of the emulated hosts
// (scripts/launch --path multihost), where MPI sees separate nodes on the same cores.
std::uint64_t machine_id() {
  std::ifstream file("/proc/sys/kernel/random/boot_id");
  std::string id;
  if (!(file >> id)) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    id = host;
  }
  return std::hash<std::string>{}(id);
}

// This process's cores: its affinity mask, or every online core when it is unknown.
cpu_set_t usable_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return set;
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  for (long c = 0; c < online && c < CPU_SETSIZE; ++c) CPU_SET(static_cast<int>(c), &set);
  return set;
}

double timeout_from_environment() {
  try {
    return ghostwire::Settings::from_environment().timeout_seconds;
  } catch (const ghostwire::Error& error) {
    // Every rank reads the same environment, so every rank stops here together.
    throw UsageError(std::string("ghostwire settings: ") + error.what());
  }
}

}  // namespace

HybridContext make_hybrid_context(MPI_Comm comm, int threads) {
  HybridContext context;
  context.threads = threads;
  context.timeout_seconds = timeout_from_environment();
  MPI_Comm_rank(MPI_COMM_WORLD, &context.rank);

  struct Placement {
    std::uint64_t machine;
    cpu_set_t cores;
  };
  const Placement mine{machine_id(), usable_cores()};
  int size = 1;
  MPI_Comm_size(comm, &size);
  std::vector<Placement> all(static_cast<std::size_t>(size));
  MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, comm);
  // The cores are the union of the ranks' masks: ranks bound to one core each do not compete.
  cpu_set_t cores;
  CPU_ZERO(&cores);
  long long machine_threads = 0;
  for (const Placement& other : all) {
    if (other.machine != mine.machine) continue;
    machine_threads += threads;
    CPU_OR(&cores, &cores, &other.cores);
  }
  context.yield_at_once = machine_threads > CPU_COUNT(&cores);
  return context;
}

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "an unknown MPI thread level";
  }
}

void abort_job(int rank, const std::string& what) {
  std::fprintf(stderr, "gw-heat: rank %d: %s\n", rank, what.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();  // MPI_Abort does not return; if it did, the job must still end
}

}  // namespace heat
