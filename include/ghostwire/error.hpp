// SPDX-License-Identifier: BSD-3-Clause
// Errors: every failure of a ghostwire call is an exception carrying a code (shared with the C API)
// and a message that names the argument, the value and what was expected.
#pragma once

#include <stdexcept>
#include <string>

namespace ghostwire {

// Values match the GW_ERR_* codes of the C API.
enum class Errc : int {
  ok = 0,
  invalid_argument = 1,  // a value outside its domain (negative size, unknown enum, value 0 ...)
  out_of_range = 2,      // an offset, size, rank, channel or id beyond what exists
  mismatch = 3,          // collective arguments that disagree between ranks
  timeout = 4,           // a wait exceeded GHOSTWIRE_TIMEOUT
  mpi = 5,               // an MPI call failed
  state = 6,             // a call that is not allowed now (resend before acknowledgement ...)
  unsupported = 7,       // a feature this build or MPI cannot provide
  internal = 8,          // a broken invariant inside ghostwire (a bug: please report)
};

const char* errc_name(Errc code) noexcept;

class Error : public std::runtime_error {
 public:
  Error(Errc code, const std::string& message) : std::runtime_error(message), code_(code) {}
  Errc code() const noexcept { return code_; }

 private:
  Errc code_;
};

// Thrown instead of aborting the job when GHOSTWIRE_ON_TIMEOUT=throw.
class TimeoutError : public Error {
 public:
  explicit TimeoutError(const std::string& message) : Error(Errc::timeout, message) {}
};

[[noreturn]] void raise(Errc code, const std::string& message);

}  // namespace ghostwire
