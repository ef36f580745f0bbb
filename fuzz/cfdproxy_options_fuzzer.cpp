// gw-cfdproxy's command line (one argument per input line): parse_options returns or throws
// UsageError.
#include <cstddef>
#include <cstdint>

#include "fuzz_input.hpp"
#include "options.hpp"
#include "usage_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gwfuzz::CommandLine line(data, size, "gw-cfdproxy");
  try {
    cfdproxy::parse_options(line.argc(), line.argv.data());
  } catch (const cfdproxy::UsageError&) {
  }
  return 0;
}
