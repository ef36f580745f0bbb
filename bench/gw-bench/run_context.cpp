// SPDX-License-Identifier: BSD-3-Clause
#include "run_context.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gwbench {
namespace {

void check(int code, const char* call) {
  if (code != MPI_SUCCESS) throw std::runtime_error(std::string(call) + " failed (MPI error " + std::to_string(code) + ")");
}

// "Open MPI v4.1.4" or "MPICH Version: 4.0.2": the first phrase of MPI's own description.
std::string short_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(text, &length);
  std::string version(text, static_cast<std::size_t>(std::max(length, 0)));
  std::size_t cut = version.find_first_of(",\n");
  if (cut != std::string::npos) version.resize(cut);
  std::replace(version.begin(), version.end(), '\t', ' ');
  while (!version.empty() && (version.back() == ' ' || version.back() == '\0')) version.pop_back();
  return version;
}

}  // namespace

RunContext::RunContext() {
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
  world_ = std::make_unique<ghostwire::World>(MPI_COMM_WORLD);
  check(MPI_Comm_split(MPI_COMM_WORLD, rank_ < 2 ? 0 : MPI_UNDEFINED, rank_, &pair_comm_), "MPI_Comm_split");

  // Physical hosts, as MPI sees them (ignoring ghostwire's emulated nodes): each rank names its
  // host by the lowest world rank on it.
  MPI_Comm host_comm;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host_comm),
        "MPI_Comm_split_type");
  int host_leader = rank_;
  check(MPI_Allreduce(MPI_IN_PLACE, &host_leader, 1, MPI_INT, MPI_MIN, host_comm), "MPI_Allreduce");
  MPI_Comm_free(&host_comm);
  std::vector<int> leaders(static_cast<std::size_t>(size_));
  check(MPI_Allgather(&host_leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
  std::vector<int> distinct = leaders;
  std::sort(distinct.begin(), distinct.end());
  hosts_ = static_cast<int>(std::unique(distinct.begin(), distinct.end()) - distinct.begin());
  oversubscribed_ = world_->oversubscribed();

  if (size_ >= 2) {
    pair_shares_host_ = leaders[0] == leaders[1];
    pair_on_one_node_ = world_->node_of(0) == world_->node_of(1);
  }
  path_ = !pair_shares_host_ ? "multihost" : (pair_on_one_node_ ? "intra" : "emulated");
  mpi_library_ = short_library_version();
}

RunContext::~RunContext() {
  transport_worlds_.clear();
  world_.reset();
  if (pair_comm_ != MPI_COMM_NULL) MPI_Comm_free(&pair_comm_);
}

ghostwire::World& RunContext::world(ghostwire::Transport transport) {
  if (world_->settings().transport == transport) return *world_;
  auto& slot = transport_worlds_[transport];
  if (!slot) {
    ghostwire::Settings settings = world_->settings();
    settings.transport = transport;
    slot = std::make_unique<ghostwire::World>(MPI_COMM_WORLD, settings);
  }
  return *slot;
}

void RunContext::pair_barrier() const {
  if (pair_comm_ != MPI_COMM_NULL) check(MPI_Barrier(pair_comm_), "MPI_Barrier");
}

void RunContext::barrier_sleeping_outside_pair() const {
  MPI_Request request;
  check(MPI_Ibarrier(MPI_COMM_WORLD, &request), "MPI_Ibarrier");
  for (;;) {
    int done = 0;
    check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done) return;
    if (!in_pair()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace gwbench
