// SPDX-License-Identifier: BSD-3-Clause
// Turns a failed MPI call into an Error naming the call and MPI's own message. Invariants: every MPI
// call of the runtime goes through check_mpi except in destructors (which must not throw; each says
// so), and every transfer that may exceed an int count goes through for_each_mpi_chunk.
// docs/runtime.md, "Errors".
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <string>

#include "ghostwire/error.hpp"

namespace ghostwire::detail {

[[noreturn]] void raise_mpi_error(int code, const char* call);

inline void check_mpi(int code, const char* call) {
  if (code != MPI_SUCCESS) raise_mpi_error(code, call);
}

// True once MPI_Finalize has run: destructors then skip their MPI calls (freeing a window or a
// communicator after MPI_Finalize is erroneous, and the process is ending anyway).
// Unchecked: destructors ask, and must not throw (MPI_Finalized may be called at any time).
inline bool mpi_finalized() noexcept {
  int finalized = 0;
  MPI_Finalized(&finalized);
  return finalized != 0;
}

// Raises Errc::state naming `call` when MPI is not initialised yet or already finalised: every MPI
// call would then be erroneous (Open MPI and MPICH abort the process), so a ghostwire entry point
// that is about to talk to MPI checks first. MPI_Initialized and MPI_Finalized may be called at any
// time and cost a load each.
void require_mpi_running(const char* call);

// MPI_Test through check_mpi: true once `request` is complete (MPI_REQUEST_NULL and inactive
// persistent requests test true).
inline bool request_complete(MPI_Request& request) {
  int done = 0;
  check_mpi(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
  return done != 0;
}

// MPI counts are int: larger transfers go in pieces of this many bytes.
inline constexpr std::size_t max_mpi_chunk = std::size_t{1} << 30;

// Cuts [0, bytes) into consecutive pieces of at most max_mpi_chunk bytes and calls
// piece(offset, count) for each, in order (nothing for 0 bytes). Every transfer that may exceed an
// int count goes through here, so the rule lives in one place.
template <class Piece>
inline void for_each_mpi_chunk(std::size_t bytes, Piece&& piece) {
  for (std::size_t offset = 0; offset < bytes; offset += max_mpi_chunk)
    piece(offset, static_cast<int>(std::min(max_mpi_chunk, bytes - offset)));
}

}  // namespace ghostwire::detail
