// SPDX-License-Identifier: BSD-3-Clause
// Output: what rank 0 writes, to standard output and to the reference's output file (clover.out,
// or --out FILE). Every method is a no-op on the other ranks, so callers need not test the rank.
// See docs/cloverleaf.md, "Output".
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace cloverleaf {

class Output {
 public:
  // Only rank 0 opens `file`; opened() tells whether that worked (main makes it collective).
  Output(int rank, const std::string& file, bool quiet);
  ~Output();
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  bool opened() const { return rank_ != 0 || file_ != nullptr; }
  bool writes() const { return rank_ == 0; }
  void both(std::string_view line);      // stdout and the file
  void progress(std::string_view line);  // the file, and stdout unless --quiet
  void file_only(std::string_view line);
  void error(std::string_view line);     // stderr and the file
  void flush();

 private:
  int rank_;
  bool quiet_;
  std::FILE* file_ = nullptr;
};

// printf into a std::string.
std::string format(const char* pattern, ...) __attribute__((format(printf, 1, 2)));
// A Fortran Ew.d edit: "   0.1136868E-12" for (0.1136868e-12, 16, 7).
std::string fortran_e(double value, int width, int digits);

}  // namespace cloverleaf
