// SPDX-License-Identifier: BSD-3-Clause
// The header, closing lines, profile table and JSON line of a run (report.hpp); the JSON fields are
// what scripts read, so they change only with the scripts (see docs/cloverleaf.md, "Output").
#include "report.hpp"

#include <cmath>
#include <vector>

#include "json_text.hpp"

namespace cloverleaf {
namespace {

std::string json_number(double v) { return std::isfinite(v) ? format("%.17g", v) : "null"; }

using ghostwire_programs::json_string;

}  // namespace

void write_header(Output& out, const RunInfo& info) {
  const Deck& deck = info.deck;
  const Decomposition& d = info.decomposition;
  const ChunkGrid& g = d.chunks;
  const Index max_x = (deck.x_cells + g.x - 1) / g.x, max_y = (deck.y_cells + g.y - 1) / g.y;
  out.both(format("gw-cloverleaf: CloverLeaf %.1f on ghostwire grids, deck %s: %d x %d cells, exchange %s, sync %s, "
                  "%d rank%s on %d node%s, %d x %d chunks of up to %lld x %lld cells",
                  1.3, deck.path.c_str(), deck.x_cells, deck.y_cells, info.options.exchange.c_str(),
                  sync_name(info.options.sync), d.ranks, d.ranks == 1 ? "" : "s", info.nodes, info.nodes == 1 ? "" : "s",
                  g.x, g.y,
                  static_cast<long long>(max_x), static_cast<long long>(max_y)));
  if (deck.tiles_per_chunk != 1) {
    out.both(format("note: tiles_per_chunk %d: each chunk is computed as one tile (tiles change the loop order only; "
                    "the field summary's sums may differ in the last digits)",
                    deck.tiles_per_chunk));
  }
  if (deck.kernels != "fortran") {
    out.both("note: use_" + std::string(deck.kernels) + "_kernels: this program has one set of kernels (C++, the reference's "
             "Fortran kernels' arithmetic)");
  }
  out.file_only("");
  out.file_only(" Clover will run from the following input:-");
  out.file_only("");
  for (const std::string& line : deck.text) out.file_only(line);
  out.file_only("");
  out.file_only(format(" Mesh ratio of %.10g", g.mesh_ratio));
  out.file_only(format(" Decomposing the mesh into %d by %d chunks", g.x, g.y));
  out.file_only("");
}

void write_closing(Output& out, const RunResult& result) {
  out.file_only("");
  out.file_only(" Calculation complete");
  out.file_only(" Clover is finishing");
  out.both(format(" Wall clock %.10g", result.wall));
  out.file_only(format(" First step overhead %.10g", result.first_step - result.second_step));
  if (result.verdict) out.both(verdict_lines(*result.verdict));
}

Profile slowest_profile(const Profile& mine, MPI_Comm comm, int& rank) {
  int ranks = 1, me = 0;
  MPI_Comm_size(comm, &ranks);
  MPI_Comm_rank(comm, &me);
  std::vector<double> all(static_cast<std::size_t>(ranks) * kernel_count);
  MPI_Gather(mine.seconds.data(), kernel_count, MPI_DOUBLE, all.data(), kernel_count, MPI_DOUBLE, 0, comm);
  Profile chosen = mine;
  rank = 0;
  if (me != 0) return chosen;
  double most = -1;
  for (int r = 0; r < ranks; ++r) {
    Profile p;
    for (int k = 0; k < kernel_count; ++k)
      p.seconds[static_cast<std::size_t>(k)] = all[static_cast<std::size_t>(r * kernel_count + k)];
    if (p.total() > most) {
      most = p.total();
      chosen = p;
      rank = r;
    }
  }
  return chosen;
}

std::string profile_table(const Profile& p, double wall) {
  std::string text = format("\n%-23s%16s%16s\n", " Profiler Output", "Time", "Percentage");
  for (int k = 0; k < kernel_count; ++k) {
    const double s = p.seconds[static_cast<std::size_t>(k)];
    text += format("%-22s:%16.4f%16.4f\n", kernel_label(static_cast<Kernel>(k)), s, 100.0 * (s / wall));
  }
  text += format("%-22s:%16.4f%16.4f\n", "Total", p.total(), 100.0 * (p.total() / wall));
  text += format("%-22s:%16.4f%16.4f", "The Rest", wall - p.total(), 100.0 * (wall - p.total()) / wall);
  return text;
}

std::string json_line(const RunInfo& info, const RunResult& result, const Profile& p, int profile_rank,
                      long long halo_updates) {
  const Deck& deck = info.deck;
  const Decomposition& d = info.decomposition;
  const double cells = static_cast<double>(deck.x_cells) * static_cast<double>(deck.y_cells);
  std::string j = "{\"app\":\"cloverleaf\"";
  j += ",\"deck\":" + json_string(deck.path);
  j += ",\"exchange\":" + json_string(info.options.exchange);
  j += ",\"sync\":" + json_string(sync_name(info.options.sync));
  if (info.round > 0) j += format(",\"round\":%d", info.round);
  j += format(",\"ranks\":%d,\"nodes\":%d,\"chunks\":[%d,%d],\"x_cells\":%d,\"y_cells\":%d,\"cells\":%.0f", d.ranks,
              info.nodes, d.chunks.x, d.chunks.y, deck.x_cells, deck.y_cells, cells);
  j += format(",\"steps\":%d,\"sim_time\":%s,\"wall_s\":%s,\"cells_per_s\":%s,\"steps_per_s\":%s", result.steps,
              json_number(result.sim_time).c_str(), json_number(result.wall).c_str(),
              json_number(cells * result.steps / result.wall).c_str(), json_number(result.steps / result.wall).c_str());
  j += format(",\"halo_updates\":%lld,\"test_problem\":%d", halo_updates, deck.test_problem);
  if (result.verdict) {
    j += ",\"verdict\":" + json_string(result.verdict->passed ? "PASSED" : "NOT PASSED");
    j += ",\"qa_diff_percent\":" + json_number(result.verdict->qa_diff);
  } else {
    j += ",\"verdict\":null";
  }
  const Summary& s = result.last;
  j += format(",\"summary\":{\"step\":%d,\"volume\":%s,\"mass\":%s,\"density\":%s,\"pressure\":%s,"
              "\"internal_energy\":%s,\"kinetic_energy\":%s,\"total_energy\":%s}",
              s.step, json_number(s.volume).c_str(), json_number(s.mass).c_str(), json_number(s.density()).c_str(),
              json_number(s.pressure()).c_str(), json_number(s.internal_energy).c_str(),
              json_number(s.kinetic_energy).c_str(), json_number(s.total_energy()).c_str());
  j += format(",\"kernel_rank\":%d,\"kernel_s\":{", profile_rank);
  for (int k = 0; k < kernel_count; ++k) {
    j += format("%s\"%s\":%s", k ? "," : "", kernel_key(static_cast<Kernel>(k)),
                json_number(p.seconds[static_cast<std::size_t>(k)]).c_str());
  }
  j += "}}";
  return j;
}

}  // namespace cloverleaf
