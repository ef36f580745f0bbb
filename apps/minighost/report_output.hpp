// ReportOutput: where rank 0 writes the report lines and the summary: standard output, and the
// --output file if one was given (so tests and scripts can read a run's results after it ends).
#pragma once

#include <fstream>
#include <string>
#include <string_view>

namespace minighost {

class ReportOutput {
 public:
  // Only rank 0 opens the file; opened() tells whether that worked (main makes it collective).
  ReportOutput(int rank, const std::string& file);
  bool opened() const { return opened_; }
  bool writes() const { return rank_ == 0; }
  void line(std::string_view text);   // stdout and file
  void error(std::string_view text);  // stderr and file

 private:
  int rank_;
  bool opened_ = true;
  std::ofstream file_;
};

}  // namespace minighost
