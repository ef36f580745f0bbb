// SPDX-License-Identifier: BSD-3-Clause
// Output (output.hpp): rank 0's lines to stdout and clover.out; every other rank's calls do nothing
// (see docs/cloverleaf.md, "Output").
#include "output.hpp"

#include <cmath>
#include <cstdarg>
#include <cstdlib>
#include <vector>

namespace cloverleaf {

Output::Output(int rank, const std::string& file, bool quiet) : rank_(rank), quiet_(quiet) {
  if (rank_ == 0) file_ = std::fopen(file.c_str(), "w");
}

Output::~Output() {
  if (file_) std::fclose(file_);
}

void Output::both(std::string_view line) {
  if (rank_ != 0) return;
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  file_only(line);
}

void Output::progress(std::string_view line) {
  if (rank_ != 0) return;
  if (quiet_) file_only(line);
  else both(line);
}

void Output::file_only(std::string_view line) {
  if (rank_ != 0 || !file_) return;
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fputc('\n', file_);
}

void Output::error(std::string_view line) {
  if (rank_ != 0) return;
  std::fflush(stdout);
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fputc('\n', stderr);
  file_only(line);
}

void Output::flush() {
  if (rank_ != 0) return;
  std::fflush(stdout);
  if (file_) std::fflush(file_);
}

std::string format(const char* pattern, ...) {
  va_list args;
  va_start(args, pattern);
  va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, pattern, args);
  va_end(args);
  std::vector<char> text(static_cast<std::size_t>(n) + 1);
  std::vsnprintf(text.data(), text.size(), pattern, again);
  va_end(again);
  return std::string(text.data(), static_cast<std::size_t>(n));
}

std::string fortran_e(double value, int width, int digits) {
  std::string body;
  if (value == 0.0 || !std::isfinite(value)) {
    body = std::isfinite(value) ? "0." + std::string(static_cast<std::size_t>(digits), '0') + "E+00" : format("%g", value);
  } else {
    // printf's d.ddddddE±x has the same significant digits, rounded alike; Fortran writes 0.dddddddE±(x+1).
    const std::string c = format("%.*E", digits - 1, std::fabs(value));
    const std::size_t e = c.find('E');
    const int exponent = std::atoi(c.c_str() + e + 1) + 1;
    body = std::string(value < 0 ? "-" : "") + "0." + c.substr(0, 1) + c.substr(2, e - 2) +
           format("E%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
  }
  if (static_cast<int>(body.size()) < width) body.insert(0, static_cast<std::size_t>(width) - body.size(), ' ');
  return body;
}

}  // namespace cloverleaf
