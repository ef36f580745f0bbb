#include "report.hpp"

#include <mpi.h>

namespace heat {
namespace {

std::string json_string(std::string_view text) {
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      quoted += escaped;
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

// Which MPI produced a number matters when comparing them.
std::string mpi_library() {
#if defined(OMPI_MAJOR_VERSION)
  return "Open MPI " + std::to_string(OMPI_MAJOR_VERSION) + "." + std::to_string(OMPI_MINOR_VERSION) +
         "." + std::to_string(OMPI_RELEASE_VERSION);
#elif defined(MPICH_VERSION)
  return std::string("MPICH ") + MPICH_VERSION;
#else
  return "unknown MPI";
#endif
}

}  // namespace

double RunReport::mupdates_per_s() const {
  const double updates = static_cast<double>(rows) * cols * timesteps;
  return time_s > 0 ? updates / time_s / 1e6 : 0.0;
}

void print_header(std::FILE* out, const RunReport& r) {
  std::fprintf(out,
               "gw-heat %.*s: %d x %d interior, %d x %d tiles, %d rank(s) (%d rows each), %d "
               "timesteps, %d heat source(s) from %s%s\n",
               static_cast<int>(r.variant.size()), r.variant.data(), r.rows, r.cols, r.bx, r.by,
               r.ranks, r.rows / r.ranks, r.timesteps, r.heat_sources, r.sources_from.c_str(),
               r.result_valid ? "" : " (no communication: the result is not the solution)");
}

void print_result_line(std::FILE* out, const RunReport& r) {
  std::fprintf(out,
               "rows %d, cols %d, block %dx%d, ranks %d, timesteps %d, time %.6f s, %.2f Mupdates/s\n",
               r.rows, r.cols, r.bx, r.by, r.ranks, r.timesteps, r.time_s, r.mupdates_per_s());
}

void print_json_line(std::FILE* out, const RunReport& r) {
  std::fprintf(out,
               "{\"app\":\"heat\",\"variant\":%s,\"ranks\":%d,\"rows\":%d,\"cols\":%d,\"bx\":%d,"
               "\"by\":%d,\"timesteps\":%d,\"time_s\":%.9g,\"mupdates_per_s\":%.6g,"
               "\"rows_per_rank\":%d,\"result_valid\":%s,\"mpi\":%s}\n",
               json_string(r.variant).c_str(), r.ranks, r.rows, r.cols, r.bx, r.by, r.timesteps,
               r.time_s, r.mupdates_per_s(), r.rows / r.ranks, r.result_valid ? "true" : "false",
               json_string(mpi_library()).c_str());
}

}  // namespace heat
