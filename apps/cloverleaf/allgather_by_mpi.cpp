// SPDX-License-Identifier: BSD-3-Clause
// The mpi and commfree variants' allgather (exchange.hpp): MPI_Allgather, as the reference's.
// See docs/cloverleaf.md, "Exchange variants".
#include "exchange.hpp"

namespace cloverleaf {

void allgather_by_mpi(MPI_Comm comm, std::span<const double> mine, std::span<double> all) {
  MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(), static_cast<int>(mine.size()),
                MPI_DOUBLE, comm);
}

}  // namespace cloverleaf
