// SPDX-License-Identifier: BSD-3-Clause
// gw-bench's subcommand command lines (one argument per input line; the first line is the
// subcommand: latency, bandwidth or halo, anything else is read as halo): the subcommand's option
// parser returns or throws UsageError, before any MPI job would start.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "halo/halo_options.hpp"
#include "message_options.hpp"
#include "usage_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gwfuzz::CommandLine line(data, size, "gw-bench");
  if (line.strings.size() < 2) return 0;
  const std::string subcommand = line.strings[1];
  const std::vector<std::string> args(line.strings.begin() + 2, line.strings.end());
  try {
    if (subcommand == "latency" || subcommand == "bandwidth")
      gwbench::parse_message_options(args, subcommand == "bandwidth");
    else
      gwbench::halo::parse_halo_options(args);
  } catch (const gwbench::UsageError&) {
  }
  return 0;
}
