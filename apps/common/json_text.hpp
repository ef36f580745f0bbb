// SPDX-License-Identifier: BSD-3-Clause
// JSON text for the programs' result lines: a string quoted and escaped (quotes, backslashes and
// control characters), shared by the apps and gw-bench.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace ghostwire_programs {

inline std::string json_string(std::string_view text) {
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(c));
      quoted += escape;
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

}  // namespace ghostwire_programs
