// SPDX-License-Identifier: BSD-3-Clause
// The implementations of gw-partitioned-bench (partitioned_exchange.hpp).
#include "partitioned_exchange.hpp"

#include <mpi.h>
#include <omp.h>
#include <sched.h>
#include <unistd.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "ghostwire/plan.hpp"
#include "ghostwire/segment.hpp"

namespace gwpart {

namespace {

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

// The library's first line, with tabs (MPICH's "Version:\t4.0.2") as spaces: it goes into JSON.
std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  for (char& c : line)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  return line;
}

double value(int rank, long iteration, std::size_t element) {
  return 1e7 * static_cast<double>(iteration + 1) + 1e6 * rank + static_cast<double>(element % 1000000);
}

}  // namespace

Setup make_setup() {
  Setup s;
  MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
  s.peer = 1 - s.rank;
  s.threads = omp_get_max_threads();
  ghostwire::Settings settings = ghostwire::Settings::from_environment();
  settings.thread_level = ghostwire::ThreadLevel::multiple;
  settings.threads_per_rank = s.threads;
  s.world = std::make_shared<ghostwire::World>(MPI_COMM_WORLD, settings);
  settings.partition_messages = ghostwire::PartitionMessages::separate;
  s.separate = std::make_shared<ghostwire::World>(MPI_COMM_WORLD, settings);
  settings.partition_messages = ghostwire::PartitionMessages::combined;
  s.combined = std::make_shared<ghostwire::World>(MPI_COMM_WORLD, settings);
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  s.mpi = first_line(version);
  const std::string mine = host_name();
  std::string theirs(256, '\0');
  MPI_Sendrecv(mine.c_str(), static_cast<int>(mine.size()) + 1, MPI_CHAR, s.peer, 0, theirs.data(), 256, MPI_CHAR,
               s.peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  s.path = s.world->node_count() == 1 ? "intra" : (mine == theirs.c_str() ? "emulated" : "multihost");
  return s;
}

std::vector<std::string> available_implementations() {
#ifdef GWPART_HAVE_MPI_PARTITIONED
  return {"gw", "mpi-partitioned", "mpi-isend", "gw-separate", "gw-combined"};
#else
  return {"gw", "mpi-isend", "gw-separate", "gw-combined"};
#endif
}

bool implementation_known(const std::string& name) {
  for (const std::string& known : available_implementations())
    if (known == name) return true;
  return false;
}

std::string join(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

void Backoff::pause() {
  if (++polls_ > 256) sched_yield();
}

PartitionedExchange::PartitionedExchange(const Setup& setup, std::size_t bytes, std::size_t partitions)
    : setup_(setup), bytes_(bytes), partitions_(partitions), elements_(bytes / partitions / sizeof(double)) {}

void PartitionedExchange::fill(double* send, std::size_t k, long iteration) const {
  double* part = partition_of(send, k);
  for (std::size_t i = 0; i < elements_; ++i) part[i] = value(setup_.rank, iteration, k * elements_ + i);
}

// The first, middle and last element of the partition: a stale partition (another iteration's
// values) or a misplaced one (another partition's) shows.
void PartitionedExchange::check(const double* received, std::size_t k, long iteration) const {
  const double* part = received + k * elements_;
  for (std::size_t i : {std::size_t{0}, elements_ / 2, elements_ - 1})
    if (part[i] != value(setup_.peer, iteration, k * elements_ + i))
      throw std::runtime_error("partition " + std::to_string(k) + " element " + std::to_string(i) + " of iteration " +
                               std::to_string(iteration) + " holds " + std::to_string(part[i]) + ", expected " +
                               std::to_string(value(setup_.peer, iteration, k * elements_ + i)));
}

double PartitionedExchange::run(long iterations) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  std::string failure;
#pragma omp parallel
  {
    try {
      loop(omp_get_thread_num(), omp_get_num_threads(), done_, iterations);
    } catch (const std::exception& error) {
#pragma omp critical
      failure = error.what();
    }
  }
  if (!failure.empty()) throw std::runtime_error(failure);
  MPI_Barrier(MPI_COMM_WORLD);
  double seconds = MPI_Wtime() - start;
  MPI_Bcast(&seconds, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  done_ += iterations;
  return seconds;
}

long PartitionedExchange::calibrate(double min_time) {
  long iterations = 4;
  run(iterations);  // warm-up: first touches, connections
  for (;;) {
    const double seconds = run(iterations);
    if (seconds >= min_time || iterations >= (1L << 24)) return iterations;
    iterations = seconds > 0 ? static_cast<long>(std::ceil(iterations * 1.2 * min_time / seconds)) : iterations * 8;
  }
}

}  // namespace gwpart
