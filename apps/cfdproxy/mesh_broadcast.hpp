// SPDX-License-Identifier: BSD-3-Clause
// Rank 0 reads and partitions the mesh once; the others receive it (48 ranks reading 48 files each
// would read the mesh 48 times).
// See docs/cfdproxy.md, "How it works".
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "mesh.hpp"

namespace cfdproxy {

void broadcast_mesh(Mesh& mesh, int root, MPI_Comm comm);
void broadcast_partition(std::vector<std::int32_t>& part, int root, MPI_Comm comm);

}  // namespace cfdproxy
