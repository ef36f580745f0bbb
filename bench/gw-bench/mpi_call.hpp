// SPDX-License-Identifier: BSD-3-Clause
// The benchmark's own MPI calls report failures as exceptions naming the call and MPI's message;
// their communicators use MPI_ERRORS_RETURN so the message reaches us.
#pragma once

#include <mpi.h>

#include <stdexcept>
#include <string>

namespace gwbench {

inline void mpi_call(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

// A private duplicate of MPI_COMM_WORLD, so no implementation's traffic can match another's.
inline MPI_Comm duplicate_world() {
  MPI_Comm comm;
  mpi_call(MPI_Comm_dup(MPI_COMM_WORLD, &comm), "MPI_Comm_dup");
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  return comm;
}

}  // namespace gwbench
