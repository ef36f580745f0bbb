// SPDX-License-Identifier: BSD-3-Clause
// gw-cloverleaf's command line (one argument per input line): parse_options returns or throws
// UsageError. The exchanges are registered by name here (the option parser only checks names), so
// the fuzzer needs none of the exchange code.
#include <cstddef>
#include <cstdint>
#include <span>

#include "exchange.hpp"
#include "fuzz_input.hpp"
#include "options.hpp"
#include "usage_error.hpp"

namespace {
const cloverleaf::ExchangeRegistration mpi_name("mpi", "named for the option parser", nullptr);
const cloverleaf::ExchangeRegistration grid_name("gw-grid", "named for the option parser", nullptr);
const cloverleaf::ExchangeRegistration plans_name("gw-plans", "named for the option parser", nullptr);
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gwfuzz::CommandLine line(data, size, "gw-cloverleaf");
  try {
    const cloverleaf::Options options =
        cloverleaf::parse_options(std::span<char* const>(line.argv.data(), static_cast<std::size_t>(line.argc())));
    if (!options.help) {
      for (const cloverleaf::RunPlan& run : cloverleaf::run_plans(options))
        (void)cloverleaf::run_output_file(options.out, run);
    }
  } catch (const cloverleaf::UsageError&) {
  }
  return 0;
}
