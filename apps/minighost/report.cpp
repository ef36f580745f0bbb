// SPDX-License-Identifier: BSD-3-Clause
// The end-of-run table and JSON line (report.hpp); their fields are what scripts read, so they
// change only with the scripts (see docs/minighost.md, "Semantics", Summary).
#include "report.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

namespace minighost {
namespace {

constexpr int phase_count = 4;  // loop, exchange, compute, check
constexpr const char* phase_names[phase_count] = {"total", "exchange", "compute", "check"};

struct Timing {
  std::array<double, phase_count> min{}, avg{}, max{};  // seconds per step
  std::vector<std::array<double, phase_count>> per_rank;  // filled with --report_perf 2, rank 0 only
};

Timing reduce_timing(const Options& options, const RunResult& r, int ranks, MPI_Comm comm) {
  const double steps = r.steps > 0 ? r.steps : 1;
  const std::array<double, phase_count> mine = {r.loop_seconds / steps, r.phases.exchange / steps,
                                                r.phases.compute / steps, r.phases.check / steps};
  Timing t;
  MPI_Reduce(mine.data(), t.min.data(), phase_count, MPI_DOUBLE, MPI_MIN, 0, comm);
  MPI_Reduce(mine.data(), t.max.data(), phase_count, MPI_DOUBLE, MPI_MAX, 0, comm);
  MPI_Reduce(mine.data(), t.avg.data(), phase_count, MPI_DOUBLE, MPI_SUM, 0, comm);
  for (double& value : t.avg) value /= ranks;
  if (options.report_perf >= 2) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) t.per_rank.resize(static_cast<std::size_t>(ranks));
    MPI_Gather(mine.data(), phase_count, MPI_DOUBLE, rank == 0 ? t.per_rank.data()->data() : nullptr, phase_count,
               MPI_DOUBLE, 0, comm);
  }
  return t;
}

std::string number(double value, const char* format = "%.6g") {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// JSON has no inf or nan.
std::string json_number(double value, const char* format = "%.6e") {
  return std::isfinite(value) ? number(value, format) : "null";
}

std::string triple(const std::array<int, 3>& v) {
  return std::to_string(v[0]) + " x " + std::to_string(v[1]) + " x " + std::to_string(v[2]);
}

std::string verification_text(const RunResult& r) {
  if (!r.conservation_enforced) {
    return "not verified (the variant does not exchange halos; largest relative error " +
           number(r.largest_relative_error, "%.3g") + ")";
  }
  if (!r.conservation_held) return "FAILED: " + r.failure;
  return "passed: " + std::to_string(r.checks) + " checks, largest relative error " +
         number(r.largest_relative_error, "%.3g") + " (tolerance " + number(r.tolerance, "%.3g") + ")";
}

}  // namespace

void report_summary(const Options& o, const Decomposition& d, const std::string& variant, const RunResult& r,
                    MPI_Comm comm, ReportOutput& output) {
  const Timing t = reduce_timing(o, r, d.ranks(), comm);
  if (!output.writes()) return;

  const auto& block = d.block();
  const auto& global = d.global_size();
  const double cells = static_cast<double>(block[x]) * block[y] * block[z];
  double time_per_step = t.max[0];  // the slowest rank sets the pace
  if (!r.round_seconds.empty() && r.steps > 0) {
    double rounds_total = 0.0;
    for (double seconds : r.round_seconds) rounds_total += seconds;
    time_per_step = rounds_total / r.steps;
  }
  const double elements_per_s = time_per_step > 0 ? cells * d.ranks() * o.num_vars / time_per_step : 0.0;

  std::ostringstream table;
  table << "\n"
        << "miniGhost  variant " << variant << "\n"
        << "  ranks                " << d.ranks() << " (process grid " << triple(d.process_grid()) << ")\n"
        << "  stencil              " << static_cast<int>(o.stencil) << " (" << stencil_name(o.stencil) << ")\n"
        << "  comm_method          " << static_cast<int>(o.comm_method) << " (" << comm_method_name(o.comm_method)
        << ")\n"
        << "  scaling              " << static_cast<int>(o.scaling) << " (" << scaling_name(o.scaling) << ")\n"
        << "  grid per rank        " << triple(block) << "\n"
        << "  global grid          " << triple(global) << "\n"
        << "  variables            " << o.num_vars << "\n"
        << "  spikes x steps       " << o.num_spikes << " x " << o.num_tsteps << "\n"
        << "  time per step        " << number(time_per_step, "%.4e") << " s\n"
        << "  mesh elements/s      " << number(elements_per_s, "%.4e") << "\n"
        << "    exchange           " << number(t.avg[1], "%.4e") << " s/step (average over ranks)\n"
        << "    compute            " << number(t.avg[2], "%.4e") << " s/step\n"
        << "    check              " << number(t.avg[3], "%.4e") << " s/step\n"
        << "  conservation         " << verification_text(r) << "\n";
  if (o.report_perf >= 1) {
    table << "  per step, min / avg / max over ranks:\n";
    for (int p = 0; p < phase_count; ++p) {
      table << "    " << phase_names[p] << std::string(19 - std::string(phase_names[p]).size(), ' ')
            << number(t.min[p], "%.4e") << " / " << number(t.avg[p], "%.4e") << " / " << number(t.max[p], "%.4e")
            << " s\n";
    }
  }
  for (std::size_t rank = 0; rank < t.per_rank.size(); ++rank) {
    const auto& p = t.per_rank[rank];
    table << "    rank " << rank << ": total " << number(p[0], "%.4e") << " exchange " << number(p[1], "%.4e")
          << " compute " << number(p[2], "%.4e") << " check " << number(p[3], "%.4e") << " s/step\n";
  }
  output.line(table.str());

  std::ostringstream json;
  json << "{\"app\":\"minighost\",\"variant\":\"" << variant << "\",\"ranks\":" << d.ranks()
       << ",\"npx\":" << d.process_grid()[x] << ",\"npy\":" << d.process_grid()[y] << ",\"npz\":" << d.process_grid()[z]
       << ",\"stencil\":" << static_cast<int>(o.stencil) << ",\"stencil_name\":\"" << stencil_name(o.stencil)
       << "\",\"comm_method\":" << static_cast<int>(o.comm_method) << ",\"comm_method_name\":\""
       << comm_method_name(o.comm_method) << "\",\"scaling\":" << static_cast<int>(o.scaling)
       << ",\"nx\":" << block[x] << ",\"ny\":" << block[y] << ",\"nz\":" << block[z]
       << ",\"global_nx\":" << global[x] << ",\"global_ny\":" << global[y] << ",\"global_nz\":" << global[z]
       << ",\"num_vars\":" << o.num_vars << ",\"num_spikes\":" << o.num_spikes << ",\"num_tsteps\":" << o.num_tsteps
       << ",\"steps\":" << r.steps << ",\"time_per_step_s\":" << json_number(time_per_step, "%.6e")
       << ",\"elements_per_s\":" << json_number(elements_per_s, "%.6e")
       << ",\"exchange_s_per_step\":" << json_number(t.avg[1], "%.6e")
       << ",\"compute_s_per_step\":" << json_number(t.avg[2], "%.6e")
       << ",\"check_s_per_step\":" << json_number(t.avg[3], "%.6e") << ",\"verified\":"
       << (!r.conservation_enforced ? "null" : r.conservation_held ? "true" : "false") << ",\"checks\":" << r.checks
       << ",\"largest_relative_error\":" << json_number(r.largest_relative_error, "%.6e")
       << ",\"tolerance\":" << json_number(r.tolerance, "%.6e");
  if (!r.round_seconds.empty()) {
    json << ",\"rounds\":" << r.round_seconds.size() << ",\"round_seconds\":[";
    for (std::size_t k = 0; k < r.round_seconds.size(); ++k) json << (k ? "," : "") << json_number(r.round_seconds[k]);
    json << "]";
  }
  json << ",\"final_interior_sums\":[";
  for (std::size_t v = 0; v < r.final_totals.size(); ++v) {
    json << (v ? "," : "") << json_number(r.final_totals[v].interior_sum, "%.17g");
  }
  json << "]}";
  output.line(json.str());
}

}  // namespace minighost
