// SPDX-License-Identifier: BSD-3-Clause
// The whole field on one rank, for checksums and images.
// See docs/heat.md, "Output".
#pragma once

#include <mpi.h>

#include <vector>

#include "band.hpp"
#include "decomposition.hpp"

namespace heat {

// Collective. Returns the (R+2) x (C+2) field in row-major order on rank 0 (boundary rows taken
// from rank 0's upper and the last rank's lower halo, which nothing writes), empty elsewhere.
std::vector<double> gather_field(const Band& band, const Decomposition& d, MPI_Comm comm);

}  // namespace heat
