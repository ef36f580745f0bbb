// SPDX-License-Identifier: BSD-3-Clause
// Error codes' names and raise(), through which every ghostwire error is thrown: a timeout is then
// always a TimeoutError, everything else an Error with its code. docs/runtime.md, "Errors".
#include "ghostwire/error.hpp"

namespace ghostwire {

const char* errc_name(Errc code) noexcept {
  switch (code) {
    case Errc::ok: return "ok";
    case Errc::invalid_argument: return "invalid argument";
    case Errc::out_of_range: return "out of range";
    case Errc::mismatch: return "mismatch between ranks";
    case Errc::timeout: return "timeout";
    case Errc::mpi: return "MPI error";
    case Errc::state: return "invalid state";
    case Errc::unsupported: return "unsupported";
    case Errc::internal: return "internal error";
  }
  return "unknown error";
}

void raise(Errc code, const std::string& message) {
  if (code == Errc::timeout) throw TimeoutError(message);
  throw Error(code, message);
}

}  // namespace ghostwire
