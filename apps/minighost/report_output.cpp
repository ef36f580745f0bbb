#include "report_output.hpp"

#include <cstdio>


namespace minighost {

ReportOutput::ReportOutput(int rank, const std::string& file) : rank_(rank) {
  if (rank_ != 0 || file.empty()) return;
  file_.open(file);
  opened_ = file_.is_open();
}

void ReportOutput::line(std::string_view text) {
  if (rank_ != 0) return;
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);  // report lines appear as the run goes, also through mpirun's pipes
  if (file_.is_open()) file_ << text << '\n' << std::flush;
}

void ReportOutput::error(std::string_view text) {
  if (rank_ != 0) return;
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fputc('\n', stderr);
  std::fflush(stderr);
  if (file_.is_open()) file_ << text << '\n' << std::flush;
}

}  // namespace minighost
