// SPDX-License-Identifier: BSD-3-Clause
// One ghostwire World per communicator, shared by every SF on it: kept as an MPI attribute of the
// communicator, destroyed when the communicator is freed, and, for communicators still alive then,
// at the start of MPI_Finalize (through an attribute of MPI_COMM_SELF, which MPI deletes first).
#pragma once

#include <mpi.h>

#include <ghostwire/world.hpp>

namespace gwpetsc {

// Collective over `comm` the first time; throws ghostwire::Error when the World cannot be built.
// Its waits have no time limit unless GHOSTWIRE_TIMEOUT sets one.
ghostwire::World& world_of(MPI_Comm comm);

}  // namespace gwpetsc
