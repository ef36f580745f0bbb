// SPDX-License-Identifier: BSD-3-Clause
// The end of a wait that timed out, and the wait state of a bare communicator (docs/runtime.md,
// "Waiting and timeouts"): every timed-out wait prints or throws the same diagnostic.
#include "wait.hpp"

#include <cstdio>
#include <sstream>

#include "ghostwire/error.hpp"

namespace ghostwire::detail {

void wait_timed_out(WorldState& world, const std::string& what) {
  std::ostringstream message;
  // A bare communicator's wait state (wait_state_for) has no node layout to name.
  const std::string who = world.node_of_rank.empty() ? "rank " + std::to_string(world.rank) : world.where();
  message << "ghostwire: " << who << " timed out after " << world.settings.timeout_seconds << " s waiting for "
          << what << ". Set GHOSTWIRE_TIMEOUT to wait longer.";
  if (world.settings.on_timeout == TimeoutAction::throw_error) {
    world.broken = true;
    throw TimeoutError(message.str());
  }
  std::fprintf(stderr, "%s\n", message.str().c_str());
  std::fflush(stderr);
  MPI_Abort(world.comm, 124);  // unchecked: it does not return, and if it fails there is nothing left to report
  std::abort();  // MPI_Abort does not return; this keeps [[noreturn]] honest if it does
}

std::unique_ptr<WorldState> wait_state_for(MPI_Comm comm, const Settings& settings) {
  auto state = std::make_unique<WorldState>();
  state->comm = comm;
  state->settings = settings;
  check_mpi(MPI_Comm_rank(comm, &state->rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(comm, &state->size), "MPI_Comm_size");
  const std::uint64_t polls = settings.spin_polls >= 0 ? static_cast<std::uint64_t>(settings.spin_polls) : 64;
  state->spin_polls = state->peer_spin_polls = polls;
  return state;
}

}  // namespace ghostwire::detail
