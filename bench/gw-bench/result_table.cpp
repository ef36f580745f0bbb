// SPDX-License-Identifier: BSD-3-Clause
#include <algorithm>

#include "result_report.hpp"
#include "size_list.hpp"

namespace gwbench {
namespace {

constexpr int size_width = 9;

int column_width(const std::string& title) { return std::max(10, static_cast<int>(title.size()) + 2); }

const Result* find(const std::vector<Result>& row, const std::string& impl) {
  for (const Result& r : row)
    if (r.impl == impl) return &r;
  return nullptr;
}

void print_value(std::FILE* out, int width, double value) {
  if (value >= 1000)
    std::fprintf(out, "%*.0f", width, value);
  else if (value >= 100)
    std::fprintf(out, "%*.1f", width, value);
  else
    std::fprintf(out, "%*.2f", width, value);
}

}  // namespace

ResultTable::ResultTable(std::vector<std::string> implementations, bool bandwidth)
    : implementations_(std::move(implementations)), bandwidth_(bandwidth) {
  auto present = [&](const char* name) {
    return std::find(implementations_.begin(), implementations_.end(), name) != implementations_.end();
  };
  for (const std::string& impl : implementations_) {
    if (impl.rfind("gw", 0) != 0) continue;
    if (present("raw")) ratios_.push_back({impl, "raw", impl + "/raw"});
    if (present("mpi-sendrecv")) ratios_.push_back({impl, "mpi-sendrecv", impl + "/mpi"});
  }
}

void ResultTable::print_heading(std::FILE* out) const {
  std::fprintf(out, "%*s", size_width, "size");
  for (const std::string& impl : implementations_) std::fprintf(out, "%*s", column_width(impl), impl.c_str());
  for (const RatioColumn& ratio : ratios_) std::fprintf(out, "%*s", column_width(ratio.title), ratio.title.c_str());
  std::fprintf(out, "\n");
  std::fflush(out);
}

void ResultTable::print_row(std::FILE* out, std::size_t bytes, const std::vector<Result>& row) const {
  std::fprintf(out, "%*s", size_width, format_size(bytes).c_str());
  for (const std::string& impl : implementations_) {
    const Result* r = find(row, impl);
    if (r)
      print_value(out, column_width(impl), shown(*r));
    else
      std::fprintf(out, "%*s", column_width(impl), "-");
  }
  for (const RatioColumn& ratio : ratios_) {
    const Result* top = find(row, ratio.numerator);
    const Result* bottom = find(row, ratio.denominator);
    if (top && bottom && shown(*bottom) > 0)
      std::fprintf(out, "%*.2f", column_width(ratio.title), shown(*top) / shown(*bottom));
    else
      std::fprintf(out, "%*s", column_width(ratio.title), "-");
  }
  std::fprintf(out, "\n");
  std::fflush(out);
}

}  // namespace gwbench
