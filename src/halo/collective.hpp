// SPDX-License-Identifier: BSD-3-Clause
// Collective steps of a commit that cannot hang: non-blocking MPI collectives and point-to-point
// messages completed through ghostwire's waits, so a rank that never arrives ends in a timeout
// diagnostic instead of a silent hang.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#include "ghostwire/error.hpp"
#include "runtime/wait.hpp"  // wait_request: every collective step below waits through it

namespace ghostwire::detail {

// Every rank passes its own problems; if any rank has one, all ranks throw together: ranks with
// problems list them, the others say how many were found elsewhere.
void throw_if_any(WorldState& world, MPI_Comm comm, const std::vector<std::string>& problems, Errc code,
                  const std::string& context);

// Sends outgoing[i] to peers[i] and returns what each peer sent back (peers may include self).
std::vector<std::vector<std::byte>> swap_with_peers(WorldState& world, MPI_Comm comm, const std::vector<int>& peers,
                                                    const std::vector<std::vector<std::byte>>& outgoing,
                                                    const std::string& what);

}  // namespace ghostwire::detail
