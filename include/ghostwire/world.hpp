// SPDX-License-Identifier: BSD-3-Clause
// World: the processes of one communicator, grouped into nodes whose members share memory.
// Invariant: every rank sees the same node layout (nodes numbered by their lowest rank).
// docs/runtime.md, "World".
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "ghostwire/settings.hpp"

namespace ghostwire {

class World;

namespace detail {
struct WorldState;
// The library's own way to a World's internals (defined in src/runtime/world_state.hpp); not part
// of the public API.
inline WorldState& world_state(World& world) noexcept;
inline const WorldState& world_state(const World& world) noexcept;
}  // namespace detail

class World {
 public:
  // Wraps `comm` (duplicated, so ghostwire's traffic never matches the user's). Initialises MPI if
  // the program has not (MPI_Init_thread at Settings::thread_level); MPI is then finalised when
  // this World is destroyed.
  explicit World(MPI_Comm comm = MPI_COMM_WORLD);
  World(MPI_Comm comm, const Settings& settings);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  int rank() const noexcept;
  int size() const noexcept;

  // Nodes are numbered 0..node_count()-1 in the order of their lowest rank.
  int node() const noexcept;
  int node_count() const noexcept;
  int node_rank() const noexcept;  // my index within my node
  int node_size() const noexcept;
  const std::vector<int>& node_ranks() const noexcept;  // ranks of my node, ascending
  int node_of(int rank) const;
  int node_rank_of(int rank) const;
  bool shares_memory_with(int rank) const;  // same (possibly emulated) node

  // Ranks of the job running on this machine (same kernel: also across containers and the
  // emulated hosts of scripts/launch --path multihost), and whether they outnumber its cores, in
  // which case a waiting rank should give its core away at once.
  int machine_ranks() const noexcept;
  // Whether the ranks' threads (Settings::threads_per_rank) outnumber the machine's cores.
  bool oversubscribed() const noexcept;

  // The thread level MPI provides. A World that initialises MPI asks for Settings::thread_level;
  // with MPI the program initialised, whatever it provides. Calls that level does not allow (a slot
  // between nodes from a second thread, say) are refused with Errc::state naming the level
  // (docs/runtime.md, "Threads").
  ThreadLevel thread_level() const noexcept;

  MPI_Comm comm() const noexcept;       // ghostwire's duplicate of the user's communicator
  MPI_Comm node_comm() const noexcept;  // the ranks of my node
  const Settings& settings() const noexcept;

  // Barrier that keeps serving incoming notified writes while it waits.
  void barrier();
  // Serves incoming notified writes of the two-sided transport; waits call it for you.
  void progress();
  // "rank 3 (node 1, node rank 1)": for messages.
  std::string where() const;

 private:
  friend detail::WorldState& detail::world_state(World&) noexcept;
  friend const detail::WorldState& detail::world_state(const World&) noexcept;
  std::unique_ptr<detail::WorldState> state_;
};

}  // namespace ghostwire
