// SPDX-License-Identifier: BSD-3-Clause
// A mistake on the command line: reported with the usage hint, before any MPI job starts.
#pragma once

#include <stdexcept>
#include <string>

namespace gwbench {

class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace gwbench
