// SPDX-License-Identifier: BSD-3-Clause
#include "collective.hpp"

#include "runtime/mpi_check.hpp"
#include "runtime/wait.hpp"

namespace ghostwire::detail {

void throw_if_any(WorldState& world, MPI_Comm comm, const std::vector<std::string>& problems, Errc code,
                  const std::string& context) {
  long mine = static_cast<long>(problems.size()), total = 0;
  MPI_Request request;
  check_mpi(MPI_Iallreduce(&mine, &total, 1, MPI_LONG, MPI_SUM, comm, &request), "MPI_Iallreduce");
  wait_request(world, request, context + ": all ranks to finish their checks (did every rank call it?)");
  if (total == 0) return;
  std::string message = context + ": ";
  if (mine == 0) {
    message += std::to_string(total) + " problem(s) found on other ranks (see their messages)";
  } else {
    for (std::size_t i = 0; i < problems.size(); ++i) message += (i ? "; " : "") + problems[i];
    if (total > mine) message += " (and " + std::to_string(total - mine) + " more on other ranks)";
  }
  raise(code, message);
}

std::vector<std::vector<std::byte>> swap_with_peers(WorldState& world, MPI_Comm comm, const std::vector<int>& peers,
                                                    const std::vector<std::vector<std::byte>>& outgoing,
                                                    const std::string& what) {
  constexpr int tag = 71;
  std::vector<MPI_Request> sends(peers.size());
  for (std::size_t i = 0; i < peers.size(); ++i)
    check_mpi(MPI_Isend(outgoing[i].data(), static_cast<int>(outgoing[i].size()), MPI_BYTE, peers[i], tag, comm,
                        &sends[i]),
              "MPI_Isend");
  std::vector<std::vector<std::byte>> incoming(peers.size());
  for (std::size_t i = 0; i < peers.size(); ++i) {
    MPI_Message message;
    MPI_Status status;
    wait_until(
        world,
        [&] {
          int found = 0;
          check_mpi(MPI_Improbe(peers[i], tag, comm, &found, &message, &status), "MPI_Improbe");
          return found != 0;
        },
        [&] { return what + " from rank " + std::to_string(peers[i]) + " (did it call it?)"; });
    int count = 0;
    check_mpi(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
    incoming[i].resize(static_cast<std::size_t>(count));
    check_mpi(MPI_Mrecv(incoming[i].data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE), "MPI_Mrecv");
  }
  for (MPI_Request& request : sends) wait_request(world, request, what + ": delivery of this rank's part");
  return incoming;
}

}  // namespace ghostwire::detail
