// The end of a wait that timed out (wait.hpp); docs/runtime.md, "Waiting and timeouts".
#include "wait.hpp"

#include <cstdio>
#include <sstream>

#include "ghostwire/error.hpp"

namespace ghostwire::detail {

void wait_timed_out(WorldState& world, const std::string& what) {
  std::ostringstream message;
  message << "ghostwire: rank " << world.rank << " (node " << world.node << ", node rank " << world.node_rank
          << ") timed out after " << world.settings.timeout_seconds << " s waiting for " << what
          << ". Set GHOSTWIRE_TIMEOUT to wait longer.";
  if (world.settings.on_timeout == TimeoutAction::throw_error) {
    world.broken = true;
    throw TimeoutError(message.str());
  }
  std::fprintf(stderr, "%s\n", message.str().c_str());
  std::fflush(stderr);
  MPI_Abort(world.comm, 124);  // unchecked: it does not return, and if it fails there is nothing left to report
  std::abort();  // MPI_Abort does not return; this keeps [[noreturn]] honest if it does
}

}  // namespace ghostwire::detail
