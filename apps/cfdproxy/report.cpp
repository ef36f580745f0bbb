// SPDX-License-Identifier: BSD-3-Clause
// The phase table and JSON line per variant (report.hpp); the JSON fields are what scripts read, so
// they change only with the scripts (see docs/cfdproxy.md, "Running it").
#include "report.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace cfdproxy {
namespace {

double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::string json_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out;
}

std::string number(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}

}  // namespace

PhaseTimes VariantResult::median() const {
  auto pick = [&](double PhaseTimes::*field) {
    std::vector<double> values;
    for (const PhaseTimes& r : rounds) values.push_back(r.*field);
    return median_of(values);
  };
  return PhaseTimes{pick(&PhaseTimes::total), pick(&PhaseTimes::gradient), pick(&PhaseTimes::exchange),
                    pick(&PhaseTimes::flux)};
}

double median_round_ratio(const VariantResult& a, const VariantResult& b) {
  std::vector<double> ratios;
  for (std::size_t r = 0; r < a.rounds.size() && r < b.rounds.size(); ++r)
    if (b.rounds[r].total > 0) ratios.push_back(a.rounds[r].total / b.rounds[r].total);
  return median_of(ratios);
}

std::string phase_table(const std::vector<VariantResult>& results) {
  std::ostringstream text;
  char line[200];
  std::snprintf(line, sizeof line, "%-16s %14s %12s %12s %12s\n", "variant", "ms/iteration", "gradient", "exchange",
                "flux");
  text << line;
  for (const VariantResult& r : results) {
    PhaseTimes m = r.median();
    std::snprintf(line, sizeof line, "%-16s %14.4f %12.4f %12.4f %12.4f\n", r.variant.c_str(), m.total * 1e3,
                  m.gradient * 1e3, m.exchange * 1e3, m.flux * 1e3);
    text << line;
  }
  auto find = [&](const char* name) -> const VariantResult* {
    for (const VariantResult& r : results)
      if (r.variant == name) return &r;
    return nullptr;
  };
  const VariantResult* gw = find("gw");
  for (const char* other : {"mpi", "mpi-partitioned", "commfree"})
    if (const VariantResult* o = find(other); gw && o) {
      std::snprintf(line, sizeof line, "gw / %-15s %8.3f (time per iteration, median of the rounds' ratios)\n", other,
                    median_round_ratio(*gw, *o));
      text << line;
    }
  if (const VariantResult* mpi = find("mpi"); gw && mpi && mpi->median().exchange > 0) {
    std::snprintf(line, sizeof line, "exchange phase gw / mpi %.3f\n", gw->median().exchange / mpi->median().exchange);
    text << line;
  }
  return text.str();
}

std::string json_line(const RunDescription& run, const VariantResult& result) {
  PhaseTimes m = result.median();
  std::ostringstream j;
  j << "{\"app\":\"gw-cfdproxy\",\"variant\":\"" << result.variant << "\",\"ranks\":" << run.ranks << ",\"threads\":" << run.threads
    << ",\"mesh\":\"" << json_escape(run.mesh) << "\",\"points\":" << run.points << ",\"faces\":" << run.faces
    << ",\"partition\":\"" << run.partition << "\",\"init\":\"" << run.init << "\",\"iterations\":" << run.iterations
    << ",\"rounds\":" << run.rounds << ",\"time_per_iteration_s\":" << number(m.total)
    << ",\"gradient_s\":" << number(m.gradient) << ",\"exchange_s\":" << number(m.exchange)
    << ",\"flux_s\":" << number(m.flux) << ",\"round_seconds\":[";
  for (std::size_t r = 0; r < result.rounds.size(); ++r)
    j << (r ? "," : "") << number(result.rounds[r].total * run.iterations);
  j << "],\"round_phases\":[";
  for (std::size_t r = 0; r < result.rounds.size(); ++r) {
    const PhaseTimes& p = result.rounds[r];
    j << (r ? "," : "") << "[" << number(p.gradient) << "," << number(p.exchange) << "," << number(p.flux) << "]";
  }
  j << "],\"checksums\":{";
  bool first = true;
  char value[40];
  for (const auto& [name, v] : result.checksums.named()) {
    std::snprintf(value, sizeof value, "%.17g", v);
    j << (first ? "" : ",") << "\"" << name << "\":" << value;
    first = false;
  }
  j << "}}";
  return j.str();
}

}  // namespace cfdproxy
