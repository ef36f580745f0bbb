// The non-template parts of the collective algorithms.
#include "ghostwire/dist/algorithm.hpp"

#include "ghostwire/error.hpp"

namespace ghostwire::detail {

void allgather_bytes(World& world, const void* mine, std::size_t bytes, void* all) {
  int rc = MPI_Allgather(mine, static_cast<int>(bytes), MPI_BYTE, all, static_cast<int>(bytes), MPI_BYTE, world.comm());
  if (rc != MPI_SUCCESS) raise(Errc::mpi, "reduce: MPI_Allgather failed with code " + std::to_string(rc));
}

void require_same_pattern(const PatternCore& a, const PatternCore& b, const char* call, const char* first,
                          const char* second) {
  if (!(a == b))
    raise(Errc::mismatch, std::string(call) + ": '" + second + "' has the pattern (" + b.describe() + ") but '" +
                              first + "' has (" + a.describe() + "); expected the same pattern");
}

}  // namespace ghostwire::detail
