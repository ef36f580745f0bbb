// SPDX-License-Identifier: BSD-3-Clause
// The header, result, JSON and summary lines of a run (report.hpp); their fields are what scripts
// read, so they change only with the scripts (see docs/heat.md, "Output").
#include "report.hpp"

#include <mpi.h>

#include <algorithm>
#include <utility>

#include "json_text.hpp"

namespace heat {
namespace {

using ghostwire_programs::json_string;

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
  const std::string threads = r.threads > 1 ? " x " + std::to_string(r.threads) + " threads" : std::string();
  std::fprintf(out,
               "gw-heat %.*s: %d x %d interior, %d x %d tiles, %d rank(s)%s (%d rows each), %d "
               "timesteps, %d heat source(s) from %s%s\n",
               static_cast<int>(r.variant.size()), r.variant.data(), r.rows, r.cols, r.bx, r.by,
               r.ranks, threads.c_str(), r.rows / r.ranks, r.timesteps, r.heat_sources, r.sources_from.c_str(),
               r.result_valid ? "" : " (no communication: the result is not the solution)");
}

void print_result_line(std::FILE* out, const RunReport& r) {
  std::fprintf(out,
               "rows %d, cols %d, block %dx%d, ranks %d, threads %d, timesteps %d, time %.6f s, %.2f Mupdates/s\n",
               r.rows, r.cols, r.bx, r.by, r.ranks, r.threads, r.timesteps, r.time_s, r.mupdates_per_s());
}

void print_json_line(std::FILE* out, const RunReport& r) {
  const std::string which = r.run > 0 ? "\"run\":" + std::to_string(r.run) : std::string("\"statistic\":\"median\"");
  std::fprintf(out,
               "{\"app\":\"heat\",\"bench\":\"heat\",\"variant\":%s,\"impl\":%s,\"ranks\":%d,\"threads\":%d,"
               "\"rows\":%d,\"cols\":%d,\"bx\":%d,\"by\":%d,\"timesteps\":%d,\"time_s\":%.9g,"
               "\"mupdates_per_s\":%.6g,\"rows_per_rank\":%d,\"result_valid\":%s,%s,\"runs\":%d,\"mpi\":%s,"
               "\"mpi_thread_level\":%s}\n",
               json_string(r.variant).c_str(), json_string(r.variant).c_str(), r.ranks, r.threads, r.rows, r.cols, r.bx,
               r.by, r.timesteps, r.time_s, r.mupdates_per_s(), r.rows / r.ranks, r.result_valid ? "true" : "false",
               which.c_str(), r.runs, json_string(mpi_library()).c_str(), json_string(r.mpi_thread_level).c_str());
}

void print_summary_table(std::FILE* out, const std::vector<RunReport>& medians) {
  if (medians.empty()) return;
  std::vector<std::string_view> variants;
  std::vector<std::pair<int, int>> tiles;
  for (const RunReport& r : medians) {
    if (std::find(variants.begin(), variants.end(), r.variant) == variants.end()) variants.push_back(r.variant);
    if (std::find(tiles.begin(), tiles.end(), std::pair{r.bx, r.by}) == tiles.end()) tiles.emplace_back(r.bx, r.by);
  }
  const RunReport& first = medians.front();
  int threads = 1;
  for (const RunReport& r : medians) threads = std::max(threads, r.threads);
  const std::string hybrid =
      threads > 1 ? ", " + std::to_string(threads) + " threads per rank in the threaded variants" : std::string();
  std::fprintf(out, "\nsummary: Mupdates/s, median of %d run(s); %d x %d interior, %d rank(s)%s\n", first.runs,
               first.rows, first.cols, first.ranks, hybrid.c_str());
  std::fprintf(out, "%-24s", "variant \\ tile");
  for (const auto& [bx, by] : tiles) {
    const std::string tile = std::to_string(bx) + "x" + std::to_string(by);
    std::fprintf(out, "%10s", tile.c_str());
  }
  std::fprintf(out, "\n");
  for (const std::string_view variant : variants) {
    std::fprintf(out, "%-24.*s", static_cast<int>(variant.size()), variant.data());
    for (const std::pair<int, int>& tile : tiles) {
      // Not a structured binding: clang before 16 cannot capture one in a lambda (the TSan build).
      const auto found = std::find_if(medians.begin(), medians.end(), [&](const RunReport& r) {
        return r.variant == variant && r.bx == tile.first && r.by == tile.second;
      });
      if (found == medians.end()) {
        std::fprintf(out, "%10s", "-");
      } else {
        std::fprintf(out, "%10.1f", found->mupdates_per_s());
      }
    }
    std::fprintf(out, "\n");
  }
}

}  // namespace heat
