// SPDX-License-Identifier: BSD-3-Clause
// ReportOutput: where rank 0 writes the report lines and the summary: standard output, and the
// --output file if one was given (so tests and scripts can read a run's results after it ends).
// See docs/minighost.md, "Side by side: the benchmark's mode".
#pragma once

#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace minighost {

class ReportOutput {
 public:
  // Only rank 0 opens the file; opened() tells whether that worked (main makes it collective).
  // `held`: lines are kept until release() (the side-by-side mode prints each variant's report
  // in one piece after all have run).
  ReportOutput(int rank, const std::string& file, bool held = false);
  bool opened() const { return opened_; }
  bool writes() const { return rank_ == 0; }
  void line(std::string_view text);   // stdout and file
  void error(std::string_view text);  // stderr and file
  void release();                      // writes the held lines; later lines go out at once

 private:
  void write(std::FILE* stream, std::string_view text);
  int rank_;
  bool opened_ = true;
  bool held_ = false;
  std::vector<std::pair<bool, std::string>> kept_;  // (is an error, text)
  std::ofstream file_;
};

}  // namespace minighost
