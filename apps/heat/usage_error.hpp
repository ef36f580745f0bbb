// UsageError: a mistake the user can fix (an option, a grid size, a config file). Every rank
// detects it the same way at the same point, so main can print it once (rank 0) and let all ranks
// finalise MPI and exit with status 2 instead of aborting the job.
#pragma once

#include <stdexcept>

namespace heat {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace heat
