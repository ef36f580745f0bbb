// UsageError: a mistake the user can fix (an option, a process grid that does not match the job).
// Every rank parses the same command line and detects it at the same point, so main prints it once
// (rank 0) and all ranks finalise MPI and exit with status 2 instead of aborting the job.
#pragma once

#include <stdexcept>

namespace minighost {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace minighost
