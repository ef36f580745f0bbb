#include <cmath>
#include <cstdio>

#include "result_report.hpp"

namespace gwbench {
namespace {

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(c));
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// Four significant digits are plenty for a timing and keep the lines short.
std::string number(double value) {
  if (!std::isfinite(value)) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

}  // namespace

std::string json_line(const Result& r, const RunDescription& run) {
  std::string line = "{\"bench\":" + quoted(r.bench) + ",\"impl\":" + quoted(r.impl) + ",\"path\":" + quoted(run.path) +
                     ",\"bytes\":" + std::to_string(r.bytes) + ",\"ranks\":" + std::to_string(run.ranks) +
                     ",\"usec\":" + number(r.usec) + ",\"mbps\":" + number(r.mbps) + ",\"usec_min\":" +
                     number(r.usec_min) + ",\"usec_max\":" + number(r.usec_max) + ",\"repeats\":" +
                     std::to_string(r.repeats) + ",\"iterations\":" + std::to_string(r.iterations);
  if (r.window > 0) line += ",\"window\":" + std::to_string(r.window);
  line += ",\"usec_per_repeat\":[";
  for (std::size_t k = 0; k < r.usec_per_repeat.size(); ++k) {
    if (k > 0) line += ',';
    line += number(r.usec_per_repeat[k]);
  }
  line += "]";
  line += ",\"transport\":" + (r.transport.empty() ? std::string("null") : quoted(r.transport)) +
          ",\"nodes\":" + std::to_string(run.nodes) + ",\"hosts\":" + std::to_string(run.hosts) +
          ",\"mpi\":" + quoted(run.mpi) + ",\"verify\":" + quoted(run.verify) + "}";
  return line;
}

}  // namespace gwbench
