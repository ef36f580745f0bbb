// SPDX-License-Identifier: BSD-3-Clause
// The implementations gw-partitioned-bench compares (partitioned_exchange.cpp): each exchanges one
// message of `bytes` in `partitions` partitions with the peer rank, both ways, per iteration, its
// threads sharing the partitions out (partition k to thread k % threads).
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "ghostwire/world.hpp"

// MPI-4's partitioned communication: MPICH 4.0 has it; Open MPI 4.1 says MPI 3.1 and has not.
#if defined(MPI_VERSION) && MPI_VERSION >= 4
#define GWPART_HAVE_MPI_PARTITIONED 1
#endif

namespace gwpart {

struct Setup {
  int rank = 0, peer = 1, threads = 1;
  std::string path, mpi;
  std::shared_ptr<ghostwire::World> world;  // at MPI's thread level (MPI_THREAD_MULTIPLE asked for)
  // The same with partitions between nodes forced one way (impls gw-separate, gw-combined).
  std::shared_ptr<ghostwire::World> separate, combined;
};
Setup make_setup();  // collective

std::vector<std::string> available_implementations();
bool implementation_known(const std::string& name);
std::string join(const std::vector<std::string>& names);

class PartitionedExchange {
 public:
  virtual ~PartitionedExchange() = default;
  // Collective: seconds for `iterations` exchanges (rank 0's clock, between two barriers).
  double run(long iterations);
  // Collective: iterations that take about `min_time` seconds (after a warm-up).
  long calibrate(double min_time);

 protected:
  PartitionedExchange(const Setup& setup, std::size_t bytes, std::size_t partitions);
  // What thread `thread` of the team does for iterations [first, first + count).
  virtual void loop(int thread, int threads, long first, long count) = 0;

  double* partition_of(double* base, std::size_t k) const { return base + k * elements_; }
  // Fills partition k of `send` for iteration `iteration`; checks partition k of `received`.
  void fill(double* send, std::size_t k, long iteration) const;
  void check(const double* received, std::size_t k, long iteration) const;

  const Setup& setup_;
  std::size_t bytes_, partitions_, elements_;  // elements_: per partition

 private:
  long done_ = 0;  // iterations run so far: values differ from run to run
};

std::unique_ptr<PartitionedExchange> make_exchange(const std::string& name, const Setup& setup, std::size_t bytes,
                                                   std::size_t partitions);

// Polls briefly, then gives the core away: ranks x threads may outnumber the cores.
class Backoff {
 public:
  void pause();

 private:
  int polls_ = 0;
};

}  // namespace gwpart
