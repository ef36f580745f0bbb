// SPDX-License-Identifier: BSD-3-Clause
// MPI errors as ghostwire Errors, and the check that MPI is running (mpi_check.hpp);
// docs/runtime.md, "Errors".
#include "mpi_check.hpp"

namespace ghostwire::detail {

void raise_mpi_error(int code, const char* call) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  raise(Errc::mpi, std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

void require_mpi_running(const char* call) {
  int initialized = 0, finalized = 0;
  check_mpi(MPI_Initialized(&initialized), "MPI_Initialized");
  check_mpi(MPI_Finalized(&finalized), "MPI_Finalized");
  if (finalized)
    raise(Errc::state, std::string(call) +
                           ": MPI is already finalised (MPI_Finalize was called); ghostwire calls must come "
                           "between MPI_Init and MPI_Finalize");
  if (!initialized)
    raise(Errc::state, std::string(call) + ": MPI is not initialised; call MPI_Init (or create a ghostwire::World, "
                                           "which initialises it) first");
}

}  // namespace ghostwire::detail
