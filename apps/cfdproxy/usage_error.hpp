// UsageError: a mistake the user can fix (an option, a rank count the partition cannot use). Every
// rank parses the same command line, so rank 0 prints it once and all ranks exit with status 2.
#pragma once

#include <stdexcept>

namespace cfdproxy {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cfdproxy
