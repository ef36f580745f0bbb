// SPDX-License-Identifier: BSD-3-Clause
// What a benchmark run knows about where it runs: the MPI job, the pair of ranks that exchange
// messages (0 and 1; the others only wait), whether that pair shares a physical host, how
// ghostwire groups the ranks into nodes, and the resulting execution path (intra, emulated,
// multihost). It also owns the ghostwire Worlds, one per inter-node transport in use, so gw-rma
// and gw-p2p can be measured side by side in one job.
#pragma once

#include <mpi.h>

#include <map>
#include <memory>
#include <string>

#include "ghostwire/settings.hpp"
#include "ghostwire/world.hpp"

namespace gwbench {

class RunContext {
 public:
  // Collective over MPI_COMM_WORLD; MPI must be initialised.
  RunContext();
  ~RunContext();
  RunContext(const RunContext&) = delete;
  RunContext& operator=(const RunContext&) = delete;

  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  bool in_pair() const noexcept { return rank_ < 2; }
  int peer() const noexcept { return rank_ == 0 ? 1 : 0; }  // only meaningful in the pair
  MPI_Comm pair_comm() const noexcept { return pair_comm_; }  // MPI_COMM_NULL outside the pair

  // "intra": ranks 0 and 1 on one host and one ghostwire node; "emulated": one host, two
  // ghostwire nodes (GHOSTWIRE_RANKS_PER_NODE); "multihost": two hosts as far as MPI can tell.
  const std::string& path() const noexcept { return path_; }
  bool pair_shares_host() const noexcept { return pair_shares_host_; }
  bool pair_on_one_ghostwire_node() const noexcept { return pair_on_one_node_; }
  int hosts() const noexcept { return hosts_; }
  int ghostwire_nodes() const noexcept { return world_->node_count(); }
  // More ranks than cores on this host: waiting ranks must yield the core almost at once.
  bool oversubscribed() const noexcept { return oversubscribed_; }
  const std::string& mpi_library() const noexcept { return mpi_library_; }
  double timeout_seconds() const noexcept { return world_->settings().timeout_seconds; }

  // The World with the environment's settings (GHOSTWIRE_*).
  ghostwire::World& world() noexcept { return *world_; }
  // The same settings but the given inter-node transport. Collective on first use for a transport.
  ghostwire::World& world(ghostwire::Transport transport);

  // Ranks 0 and 1 line up before each measurement.
  void pair_barrier() const;
  // The end of a run: ranks outside the pair wait here all along, sleeping, so they take no core
  // away from the pair.
  void barrier_sleeping_outside_pair() const;

 private:
  int rank_ = 0, size_ = 0;
  MPI_Comm pair_comm_ = MPI_COMM_NULL;
  bool pair_shares_host_ = true, pair_on_one_node_ = true, oversubscribed_ = false;
  int hosts_ = 1;
  std::string path_, mpi_library_;
  std::unique_ptr<ghostwire::World> world_;
  std::map<ghostwire::Transport, std::unique_ptr<ghostwire::World>> transport_worlds_;
};

}  // namespace gwbench
