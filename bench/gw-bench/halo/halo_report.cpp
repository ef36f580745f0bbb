// SPDX-License-Identifier: BSD-3-Clause
#include "halo_report.hpp"

#include <algorithm>
#include <cmath>

#include "exchanger.hpp"

namespace gwbench::halo {
namespace {

constexpr int case_width = 14;

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out + "\"";
}

std::string number(double value) {
  if (!std::isfinite(value)) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

// A JSON array of `values`, each written by `write`; null when empty and `empty_is_null`.
template <class T, class Write>
std::string json_array(const std::vector<T>& values, Write write, bool empty_is_null = false) {
  if (values.empty() && empty_is_null) return "null";
  std::string out = "[";
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (k > 0) out += ',';
    out += write(values[k]);
  }
  return out + "]";
}

int column_width(const std::string& title) { return std::max(10, static_cast<int>(title.size()) + 2); }

void print_value(std::FILE* out, int width, double value) {
  if (value >= 1000) std::fprintf(out, "%*.0f", width, value);
  else if (value >= 100) std::fprintf(out, "%*.1f", width, value);
  else std::fprintf(out, "%*.2f", width, value);
}

const HaloResult* find(const std::vector<HaloResult>& row, const std::string& impl) {
  for (const HaloResult& r : row)
    if (r.impl == impl) return &r;
  return nullptr;
}

}  // namespace

std::string halo_json_line(const HaloResult& r, const HaloRun& run) {
  const std::string repeats = json_array(r.usec_per_repeat, number);
  const std::string internode =
      json_array(r.internode_messages, [](long n) { return std::to_string(n); }, /*empty_is_null=*/true);
  return "{\"bench\":\"halo\",\"case\":" + quoted(r.case_name) + ",\"impl\":" + quoted(r.impl) +
         ",\"path\":" + quoted(run.path) + ",\"ranks\":" + std::to_string(run.ranks) + ",\"usec\":" + number(r.usec) +
         ",\"usec_min\":" + number(r.usec_min) + ",\"usec_max\":" + number(r.usec_max) +
         ",\"bytes_per_exchange\":" + std::to_string(r.bytes_per_exchange) +
         ",\"messages\":" + std::to_string(r.messages) + ",\"neighbours\":" + std::to_string(r.neighbours) +
         ",\"internode_messages\":" + internode +
         ",\"repeats\":" + std::to_string(r.repeats) + ",\"repeats_asked\":" + std::to_string(r.repeats_asked) +
         ",\"iterations\":" + std::to_string(r.iterations) +
         ",\"transport\":" + (r.transport.empty() ? std::string("null") : quoted(r.transport)) +
         ",\"nodes\":" + std::to_string(run.nodes) + ",\"hosts\":" + std::to_string(run.hosts) +
         ",\"mpi\":" + quoted(run.mpi) + ",\"verify\":" + quoted(run.verify) +
         ",\"direction\":" + quoted(run.direction) + ",\"usec_per_repeat\":" + repeats + "}";
}

const HaloResult* fastest(const std::vector<HaloResult>& row, bool (*among)(std::string_view)) {
  const HaloResult* best = nullptr;
  for (const HaloResult& r : row)
    if (among(r.impl) && (!best || r.usec < best->usec)) best = &r;
  return best;
}

HaloTable::HaloTable(std::vector<std::string> implementations) : implementations_(std::move(implementations)) {
  for (const std::string& impl : implementations_) {
    has_gw_ = has_gw_ || impl == "gw";
    has_raw_ = has_raw_ || impl == "raw";
    has_mpi_ = has_mpi_ || is_mpi_exchanger(impl);
    has_peer_ = has_peer_ || is_peer_exchanger(impl);
  }
}

void HaloTable::print_heading(std::FILE* out) const {
  std::fprintf(out, "%-*s", case_width, "case");
  for (const std::string& impl : implementations_) std::fprintf(out, "%*s", column_width(impl), impl.c_str());
  if (has_gw_ && has_mpi_) std::fprintf(out, "%16s%9s", "best MPI", "gw/mpi");
  if (has_gw_ && has_peer_) std::fprintf(out, "%16s%9s", "best peer", "gw/peer");
  if (has_gw_ && has_raw_) std::fprintf(out, "%9s", "gw/raw");
  std::fprintf(out, "\n");
  std::fflush(out);
}

void HaloTable::print_row(std::FILE* out, const std::string& case_name, const std::vector<HaloResult>& row) const {
  std::fprintf(out, "%-*s", case_width, case_name.c_str());
  for (const std::string& impl : implementations_) {
    if (const HaloResult* r = find(row, impl))
      print_value(out, column_width(impl), r->usec);
    else
      std::fprintf(out, "%*s", column_width(impl), "-");
  }
  const HaloResult* gw = find(row, "gw");
  auto versus_fastest = [&](bool (*among)(std::string_view)) {
    const HaloResult* other = fastest(row, among);
    if (gw && other && other->usec > 0)
      std::fprintf(out, "%16s%9.2f", other->impl.c_str(), gw->usec / other->usec);
    else
      std::fprintf(out, "%16s%9s", "-", "-");
  };
  if (has_gw_ && has_mpi_) versus_fastest(is_mpi_exchanger);
  if (has_gw_ && has_peer_) versus_fastest(is_peer_exchanger);
  if (has_gw_ && has_raw_) {
    const HaloResult* raw = find(row, "raw");
    if (gw && raw && raw->usec > 0)
      std::fprintf(out, "%9.2f", gw->usec / raw->usec);
    else
      std::fprintf(out, "%9s", "-");
  }
  std::fprintf(out, "\n");
  std::fflush(out);
}

}  // namespace gwbench::halo
