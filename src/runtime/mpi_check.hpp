// Turns a failed MPI call into an Error naming the call and MPI's own message.
#pragma once

#include <mpi.h>

#include <string>

#include "ghostwire/error.hpp"

namespace ghostwire::detail {

[[noreturn]] void raise_mpi_error(int code, const char* call);

inline void check_mpi(int code, const char* call) {
  if (code != MPI_SUCCESS) raise_mpi_error(code, call);
}

// MPI counts are int: larger transfers go in pieces of this many bytes.
inline constexpr std::size_t max_mpi_chunk = std::size_t{1} << 30;

}  // namespace ghostwire::detail
