// SPDX-License-Identifier: BSD-3-Clause
// gw-heat's command line (one argument per input line): parse_options returns or throws UsageError.
#include <cstddef>
#include <cstdint>
#include <span>

#include "fuzz_input.hpp"
#include "options.hpp"
#include "usage_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gwfuzz::CommandLine line(data, size, "gw-heat");
  try {
    const heat::Options options =
        heat::parse_options(std::span<char* const>(line.argv.data(), static_cast<std::size_t>(line.argc())));
    if (!options.help && (options.rows < 1 || options.cols < 1 || options.tiles.empty())) __builtin_trap();
  } catch (const heat::UsageError&) {
  }
  return 0;
}
