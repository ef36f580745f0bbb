// SPDX-License-Identifier: BSD-3-Clause
// heat.conf (gw-heat --conf): parse_heat_sources either returns the sources or throws UsageError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "heat_sources.hpp"
#include "usage_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    for (const heat::HeatSource& source : heat::parse_heat_sources(text, "fuzz.conf")) {
      // What the solver relies on: a range that divides the heat.
      if (!(source.range > 0)) __builtin_trap();
    }
  } catch (const heat::UsageError&) {
  }
  return 0;
}
