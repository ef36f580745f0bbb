// SPDX-License-Identifier: BSD-3-Clause
// A table of implementations, each a name and its one-line summary for --help: the name list and
// the summary lookup are both read from it (the message and the halo subcommands each have one).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gwbench {

struct NamedSummary {
  const char* name;
  const char* summary;
};

template <std::size_t N>
std::vector<std::string> names_of(const NamedSummary (&table)[N]) {
  std::vector<std::string> names;
  for (const NamedSummary& e : table) names.emplace_back(e.name);
  return names;
}

// "" for a name not in the table.
template <std::size_t N>
std::string_view summary_of(const NamedSummary (&table)[N], std::string_view name) {
  for (const NamedSummary& e : table)
    if (name == e.name) return e.summary;
  return "";
}

}  // namespace gwbench
