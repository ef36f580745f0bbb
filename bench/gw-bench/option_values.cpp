// SPDX-License-Identifier: BSD-3-Clause
#include "option_values.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "usage_error.hpp"

namespace gwbench {

long parse_count(const std::string& option, const std::string& text, long minimum, long maximum) {
  long value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < minimum || value > maximum)
    throw UsageError(option + " '" + text + "': expected a whole number from " + std::to_string(minimum) + " to " +
                     std::to_string(maximum));
  return value;
}

double parse_seconds(const std::string& option, const std::string& text, double maximum) {
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value) || value <= 0 || value > maximum)
    throw UsageError(option + " '" + text + "': expected a positive number of seconds (at most " +
                     std::to_string(static_cast<long>(maximum)) + ")");
  return value;
}

}  // namespace gwbench
