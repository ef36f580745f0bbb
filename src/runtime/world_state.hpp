// SPDX-License-Identifier: BSD-3-Clause
// What a World knows: communicators, the node layout, the segments it owns and its inter-node
// transport. Internal to ghostwire: reached only through detail::world_state. docs/runtime.md,
// "World".
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ghostwire/settings.hpp"
#include "ghostwire/world.hpp"

namespace ghostwire::detail {

struct SegmentState;
class InterNodeTransport;
struct ReductionArea;

struct WorldState {
  WorldState();
  ~WorldState();

  MPI_Comm comm = MPI_COMM_NULL;                 // duplicate of the user's communicator
  MPI_Comm physical_node_comm = MPI_COMM_NULL;   // ranks that really share memory
  MPI_Comm node_comm = MPI_COMM_NULL;            // ranks of my (possibly emulated) node
  bool owns_mpi = false;
  int thread_level = MPI_THREAD_SINGLE;  // what MPI provides (MPI_Query_thread), for the plans' checks
  // The thread MPI calls main, when the World was made on it (else MPI_Is_thread_main is asked).
  std::thread::id main_thread;
  bool main_thread_known = false;
  // ghostwire's door to MPI below MPI_THREAD_MULTIPLE, and to the transport's progress at any
  // level: the tag of the thread inside (0: none) and how often it entered (runtime/threads.hpp).
  std::atomic<std::uintptr_t> mpi_holder{0};
  int mpi_depth = 0;
  // A wait of this process timed out and threw TimeoutError: a peer may be dead or stuck, so the
  // destructors that unwind from it free nothing collectively (MPI_Win_free, MPI_Comm_free,
  // MPI_Finalize would wait for that peer forever, after the diagnostic was thrown but before
  // anyone could print it). The MPI resources are left to the job's end.
  bool broken = false;
  Settings settings;

  int rank = 0, size = 1;
  int node = 0, node_count = 1, node_rank = 0, node_size = 1;
  std::vector<int> node_of_rank, node_rank_of_rank, node_ranks;
  int machine_ranks = 1;  // ranks on this machine (kernel), across emulated hosts too
  int machine_threads = 1;  // their threads (Settings::threads_per_rank summed)
  bool some_machine_oversubscribed = false;  // any machine of the job: the same on every rank
  int cores = 1;
  std::uint64_t spin_polls = 1;
  // For waits on node peers' stores only (a plan without inter-node slots): when ranks outnumber
  // the cores the peer may need this very core, so yield at once.
  std::uint64_t peer_spin_polls = 1;

  // Empty when MPI creates one-sided windows over the world (always with one node); otherwise why
  // it cannot and what to set, for the errors of the calls that need such windows (a Segment's
  // put and get to another node, the rma transport). Found at World creation, the same everywhere.
  std::string no_windows_between_nodes;

  std::vector<SegmentState*> segments;  // indexed by segment id; null once destroyed
  int next_plan_id = 0;
  std::unique_ptr<InterNodeTransport> transport;
  bool needs_progress = false;  // the transport must be served while waiting
  // The transport's own state (its message pool, pending requests, inbox) is one thread's at a time:
  // a notified write holds this for its call; a wait serves the transport only if it gets it.
  std::mutex transport_mutex;
  std::unique_ptr<ReductionArea> reduction;  // made by the first allreduce
  bool reduction_pending = false;            // an allreduce_start not yet waited for

  // Work this rank owes its peers and may do in any wait: a plan's pushes that wait for their
  // receivers' "free" signal (halo/push_path.cpp). ghostwire has no progress thread, so every wait
  // of the process serves it (Waiter::pause): a rank that sent and then waits in a barrier, or in
  // another plan, still writes what its peers wait for.
  struct OwedWork {
    void (*serve)(void* context);
    void* context;
  };
  std::vector<OwedWork> owed_work;
  void serve_owed_work() {
    for (const OwedWork& work : owed_work) work.serve(work.context);
  }

  // Serves the transport if this thread may enter MPI now (runtime/threads.hpp, ProgressTurn).
  void progress();
  SegmentState& segment(int id, int from_rank);
  std::string where() const;
};

// Declared in the public header as World's friends, defined only here: internal code reaches the
// state, users cannot.
inline WorldState& world_state(World& world) noexcept { return *world.state_; }
inline const WorldState& world_state(const World& world) noexcept { return *world.state_; }

}  // namespace ghostwire::detail
