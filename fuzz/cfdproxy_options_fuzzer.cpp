// SPDX-License-Identifier: BSD-3-Clause
// gw-cfdproxy's command line (one argument per input line): parse_options returns or throws
// UsageError.
#include <cstddef>
#include <cstdint>

#include "exchange.hpp"
#include "fuzz_input.hpp"
#include "options.hpp"
#include "usage_error.hpp"

// The variants' names, as their files register them in the app (without the exchanges, which
// need the library): --variant is then checked as it is in gw-cfdproxy.
namespace {
const cfdproxy::ExchangeRegistration gw_name{"gw", 1, nullptr};
const cfdproxy::ExchangeRegistration mpi_name{"mpi", 2, nullptr};
const cfdproxy::ExchangeRegistration commfree_name{"commfree", 3, nullptr};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gwfuzz::CommandLine line(data, size, "gw-cfdproxy");
  try {
    cfdproxy::parse_options(line.argc(), line.argv.data());
  } catch (const cfdproxy::UsageError&) {
  }
  return 0;
}
