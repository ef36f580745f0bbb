// SPDX-License-Identifier: BSD-3-Clause
#include "halo_case.hpp"

#include <algorithm>
#include <charconv>

#include "../usage_error.hpp"

namespace gwbench::halo {

std::vector<int> HaloCase::neighbours() const {
  std::vector<int> ranks;
  for (const Message& m : sends) ranks.push_back(m.neighbour);
  for (const Receive& m : receives) ranks.push_back(m.neighbour);
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return ranks;
}

std::size_t HaloCase::receive_elements() const {
  std::size_t count = 0;
  for (const Receive& m : receives) count += m.layout.count();
  return count;
}

std::vector<std::string> default_case_names() {
  return {"2d-512-h1",  "2d-512-h2",   "2d-2048-h1", "2d-2048-h2",  "3d-64-7pt",
          "3d-64-27pt", "3d-128-7pt", "3d-128-27pt", "unstructured"};
}

namespace {

int parse_number(const std::string& case_name, const std::string& text, int minimum, int maximum) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < minimum || value > maximum)
    throw UsageError("--cases: '" + case_name + "': '" + text + "' should be a whole number from " +
                     std::to_string(minimum) + " to " + std::to_string(maximum));
  return value;
}

}  // namespace

CaseSpec parse_case(const std::string& name) {
  const std::string forms = " (expected 2d-N-hH, 3d-N-7pt, 3d-N-27pt or unstructured, e.g. 2d-512-h1)";
  CaseSpec spec;
  spec.name = name;
  if (name == "unstructured") {
    spec.kind = CaseSpec::Kind::unstructured;
    return spec;
  }
  std::size_t first = name.find('-'), second = first == std::string::npos ? first : name.find('-', first + 1);
  if (second == std::string::npos) throw UsageError("--cases: unknown case '" + name + "'" + forms);
  std::string dimension = name.substr(0, first), size = name.substr(first + 1, second - first - 1),
              stencil = name.substr(second + 1);
  if (dimension == "2d") {
    spec.kind = CaseSpec::Kind::grid2d;
    spec.size = parse_number(name, size, 2, 1 << 15);
    if (stencil.size() < 2 || stencil[0] != 'h') throw UsageError("--cases: unknown case '" + name + "'" + forms);
    spec.halo = parse_number(name, stencil.substr(1), 1, 64);
  } else if (dimension == "3d") {
    spec.kind = CaseSpec::Kind::grid3d;
    spec.size = parse_number(name, size, 2, 1 << 11);
    if (stencil == "7pt") spec.corners = false;
    else if (stencil == "27pt") spec.corners = true;
    else throw UsageError("--cases: unknown case '" + name + "'" + forms);
  } else {
    throw UsageError("--cases: unknown case '" + name + "'" + forms);
  }
  return spec;
}

}  // namespace gwbench::halo
