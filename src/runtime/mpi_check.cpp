#include "mpi_check.hpp"

namespace ghostwire::detail {

void raise_mpi_error(int code, const char* call) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  raise(Errc::mpi, std::string(call) + " failed: " + std::string(text, static_cast<std::size_t>(length)));
}

}  // namespace ghostwire::detail
