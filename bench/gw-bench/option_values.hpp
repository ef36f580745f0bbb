// SPDX-License-Identifier: BSD-3-Clause
// The values of gw-bench's options (counts, seconds), shared by every subcommand's parser: a value
// out of range is a UsageError naming the option, the text and what was expected.
#pragma once

#include <string>

namespace gwbench {

// A whole number in [minimum, maximum].
long parse_count(const std::string& option, const std::string& text, long minimum, long maximum);
// A positive number of seconds, at most `maximum`.
double parse_seconds(const std::string& option, const std::string& text, double maximum = 3600);

}  // namespace gwbench
