// SPDX-License-Identifier: BSD-3-Clause
// The non-template parts of the collective algorithms (docs/dist.md, "Algorithms"): their one
// collective is waited for like every ghostwire wait, so a rank that never calls it ends the others
// with the timeout diagnostic, not a hang inside MPI.
#include "ghostwire/dist/algorithm.hpp"

#include <climits>

#include "ghostwire/error.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/wait.hpp"

namespace ghostwire::detail {

void allgather_bytes(World& world, const void* mine, std::size_t bytes, void* all) {
  if (bytes > static_cast<std::size_t>(INT_MAX))
    raise(Errc::invalid_argument, "reduce: each rank's part is " + std::to_string(bytes) +
                                      " bytes; expected at most INT_MAX (" + std::to_string(INT_MAX) + ")");
  const int count = static_cast<int>(bytes);
  MPI_Request request = MPI_REQUEST_NULL;
  check_mpi(MPI_Iallgather(mine, count, MPI_BYTE, all, count, MPI_BYTE, world.comm(), &request), "MPI_Iallgather");
  wait_request(detail::world_state(world), request, "reduce: every rank's part (some rank has not called reduce)");
}

void require_same_pattern(const PatternCore& a, const PatternCore& b, const char* call, const char* first,
                          const char* second) {
  if (!(a == b))
    raise(Errc::mismatch, std::string(call) + ": '" + second + "' has the pattern (" + b.describe() + ") but '" +
                              first + "' has (" + a.describe() + "); expected the same pattern");
}

}  // namespace ghostwire::detail
