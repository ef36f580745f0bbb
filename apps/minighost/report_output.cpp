// SPDX-License-Identifier: BSD-3-Clause
// ReportOutput (report_output.hpp): rank 0's lines to stdout and the --output file; a side-by-side
// run holds its lines until the run ends (see docs/minighost.md,
// "Side by side: the benchmark's mode").
#include "report_output.hpp"

namespace minighost {

ReportOutput::ReportOutput(int rank, const std::string& file, bool held) : rank_(rank), held_(held) {
  if (rank_ != 0 || file.empty()) return;
  file_.open(file);
  opened_ = file_.is_open();
}

void ReportOutput::write(std::FILE* stream, std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stream);
  std::fputc('\n', stream);
  std::fflush(stream);  // report lines appear as the run goes, also through mpirun's pipes
  if (file_.is_open()) file_ << text << '\n' << std::flush;
}

void ReportOutput::line(std::string_view text) {
  if (rank_ != 0) return;
  if (held_) kept_.emplace_back(false, std::string(text));
  else write(stdout, text);
}

void ReportOutput::error(std::string_view text) {
  if (rank_ != 0) return;
  if (held_) kept_.emplace_back(true, std::string(text));
  else write(stderr, text);
}

void ReportOutput::release() {
  held_ = false;
  for (const auto& [is_error, text] : kept_) write(is_error ? stderr : stdout, text);
  kept_.clear();
}

}  // namespace minighost
