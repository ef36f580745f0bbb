// SPDX-License-Identifier: BSD-3-Clause
// Message-size lists for the command line: "8", "64K", "4M", "1G" (binary units) and power-of-two
// ranges "8-4M", so `--sizes 8-4M` is the default sweep and `--sizes 8,4K,64K` a quick one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gwbench {

inline constexpr std::size_t largest_message = std::size_t{1} << 30;  // MPI counts are int

// Sorted, without duplicates. Throws UsageError naming the bad item and what was expected.
std::vector<std::size_t> parse_size_list(std::string_view text);
// The default sweep: 8 B to 4 MiB in powers of two.
std::vector<std::size_t> default_sizes();
// "8 B", "64 KiB", "4 MiB", "1536 B": exact, for tables and messages.
std::string format_size(std::size_t bytes);

}  // namespace gwbench
