// UsageError: a mistake the user can fix (an option, a deck keyword, a job too large for the mesh).
// Every rank parses the same command line and the same deck text and detects it at the same point,
// so main prints it once (rank 0) and every rank finalises MPI and exits with status 2: nothing
// hangs and nothing aborts the job.
#pragma once

#include <stdexcept>

namespace cloverleaf {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cloverleaf
