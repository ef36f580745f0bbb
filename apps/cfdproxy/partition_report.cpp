// SPDX-License-Identifier: BSD-3-Clause
// The partition report (partition_report.hpp): its table and JSON lines, which
// bench/cfdproxy/plot_partitions.py reads (see docs/cfdproxy.md,
// "The partition report and its plot").
#include "partition_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "json_text.hpp"
#include "partition.hpp"

namespace cfdproxy {
namespace {

struct Summary {
  double min = 0, median = 0, max = 0;
};

// The median as Python's statistics.median takes it (the mean of the middle two for an even count),
// like the benchmark scripts.
Summary summarise(std::vector<double> values) {
  if (values.empty()) return {};
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  const double median = values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
  return {values.front(), median, values.back()};
}

std::string number(double value, const char* format = "%.6g") {
  if (!std::isfinite(value)) return "null";  // JSON has no inf or nan
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

using ghostwire_programs::json_string;

std::string json_summary(const Summary& s, const char* format) {
  return "{\"min\":" + number(s.min, format) + ",\"median\":" + number(s.median, format) +
         ",\"max\":" + number(s.max, format) + "}";
}

std::string column(double value, int width, const char* format = "%.0f") {
  std::string text = number(value, format);
  return std::string(static_cast<std::size_t>(std::max(0, width - static_cast<int>(text.size()))), ' ') + text;
}

}  // namespace

void print_partition_report(const Mesh& mesh, const std::vector<int>& part_counts, std::ostream& table,
                            std::ostream* json) {
  table << "Partitions of " << mesh.description << "\n"
        << "METIS k-way; per part: owned points, halo (\"add\") points and add/own; min / median / max over the parts\n"
        << " parts |        owned: min   median      max |      halo: min  median     max |  add/own: min  median"
           "    max\n";
  for (const int parts : part_counts) {
    const std::vector<std::int32_t> part = partition_metis(mesh, parts);
    const std::vector<PartCounts> counts = count_points(mesh, part, parts);
    std::vector<double> owned, halo, ratio;
    for (const PartCounts& c : counts) {
      owned.push_back(static_cast<double>(c.owned));
      halo.push_back(static_cast<double>(c.halo));
      ratio.push_back(static_cast<double>(c.halo) / static_cast<double>(c.owned));
    }
    const Summary o = summarise(owned), h = summarise(halo), r = summarise(ratio);
    table << column(parts, 6) << " |" << column(o.min, 17) << column(o.median, 9, "%.1f") << column(o.max, 9)
          << " |" << column(h.min, 14) << column(h.median, 8, "%.1f") << column(h.max, 8) << " |"
          << column(r.min, 14, "%.4f") << column(r.median, 8, "%.4f") << column(r.max, 7, "%.4f") << "\n";
    if (json != nullptr) {
      std::ostringstream line;
      line << "{\"app\":\"gw-cfdproxy\",\"report\":\"partition\",\"partitioner\":\"metis\",\"mesh\":"
           << json_string(mesh.description) << ",\"points\":" << mesh.points << ",\"faces\":" << mesh.faces.size()
           << ",\"parts\":" << parts << ",\"owned\":" << json_summary(o, "%.17g")
           << ",\"halo\":" << json_summary(h, "%.17g") << ",\"add_per_own\":" << json_summary(r, "%.6e")
           << ",\"per_part\":[";
      for (std::size_t k = 0; k < counts.size(); ++k) {
        line << (k ? "," : "") << "[" << counts[k].owned << "," << counts[k].halo << "]";
      }
      line << "]}\n";
      *json << line.str() << std::flush;
    }
  }
}

}  // namespace cfdproxy
