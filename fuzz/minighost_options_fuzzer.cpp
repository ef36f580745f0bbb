// SPDX-License-Identifier: BSD-3-Clause
// gw-minighost's command line: the first input line is the job's rank count (1 to 4096; anything
// else is read as 1), the others one argument each. parse_options returns or throws UsageError.
#include <cstddef>
#include <cstdint>
#include <span>
#include <algorithm>
#include <string>

#include "fuzz_input.hpp"
#include "options.hpp"
#include "usage_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gwfuzz::CommandLine line(data, size, "gw-minighost");
  int ranks = 1;
  if (line.strings.size() > 1) {
    const std::string& first = line.strings[1];
    if (!first.empty() && first.size() <= 4 && first.find_first_not_of("0123456789") == std::string::npos)
      ranks = std::max(1, std::stoi(first));
    line.strings.erase(line.strings.begin() + 1);
    line.argv.erase(line.argv.begin() + 1);
  }
  try {
    minighost::parse_options(std::span<char* const>(line.argv.data(), static_cast<std::size_t>(line.argc())), ranks);
  } catch (const minighost::UsageError&) {
  }
  return 0;
}
