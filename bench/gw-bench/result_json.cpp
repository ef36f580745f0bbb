// SPDX-License-Identifier: BSD-3-Clause
#include <cmath>
#include <cstdio>

#include "json_text.hpp"
#include "result_report.hpp"

namespace gwbench {
namespace {

using ghostwire_programs::json_string;

// Four significant digits are plenty for a timing and keep the lines short.
std::string number(double value) {
  if (!std::isfinite(value)) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

}  // namespace

std::string json_line(const Result& r, const RunDescription& run) {
  std::string line = "{\"bench\":" + json_string(r.bench) + ",\"impl\":" + json_string(r.impl) + ",\"path\":" + json_string(run.path) +
                     ",\"bytes\":" + std::to_string(r.bytes) + ",\"ranks\":" + std::to_string(run.ranks) +
                     ",\"usec\":" + number(r.usec) + ",\"mbps\":" + number(r.mbps) + ",\"usec_min\":" +
                     number(r.usec_min) + ",\"usec_max\":" + number(r.usec_max) + ",\"repeats\":" +
                     std::to_string(r.repeats) + ",\"repeats_asked\":" + std::to_string(r.repeats_asked) +
                     ",\"iterations\":" + std::to_string(r.iterations);
  if (r.window > 0) line += ",\"window\":" + std::to_string(r.window);
  line += ",\"usec_per_repeat\":[";
  for (std::size_t k = 0; k < r.usec_per_repeat.size(); ++k) {
    if (k > 0) line += ',';
    line += number(r.usec_per_repeat[k]);
  }
  line += "]";
  line += ",\"transport\":" + (r.transport.empty() ? std::string("null") : json_string(r.transport)) +
          ",\"nodes\":" + std::to_string(run.nodes) + ",\"hosts\":" + std::to_string(run.hosts) +
          ",\"mpi\":" + json_string(run.mpi) + ",\"verify\":" + json_string(run.verify) + "}";
  return line;
}

}  // namespace gwbench
