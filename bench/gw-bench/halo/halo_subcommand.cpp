// SPDX-License-Identifier: BSD-3-Clause
// gw-bench halo: one halo exchange, several implementations (ghostwire, four MPI styles, the peers
// PetscSF and Global Arrays, the raw shared-memory floor), the same arrays and cases, measured side
// by side in one job. Every rank
// takes part; the time of an exchange is that of the slowest rank. See docs/benchmarks-howto.md.
#include <mpi.h>

#include <algorithm>
#include <cstdio>

#include "../run_context.hpp"
#include "../subcommand.hpp"
#include "../usage_error.hpp"
#include "exchanger.hpp"
#include "halo_measure.hpp"
#include "halo_options.hpp"
#include "halo_report.hpp"

namespace gwbench {
namespace {

using namespace halo;

// The path of the whole job (all ranks exchange, not just 0 and 1): several hosts as MPI sees
// them, else several ghostwire nodes on one host, else one node.
std::string job_path(const RunContext& context) {
  if (context.hosts() > 1) return "multihost";
  return context.ghostwire_nodes() > 1 ? "emulated" : "intra";
}

std::vector<std::string> choose_implementations(const RunContext& context, const HaloOptions& o) {
  std::vector<std::string> chosen;
  for (const std::string& name : exchanger_names()) {  // report order, whatever the order asked
    bool asked = (o.implementations.empty() && !only_when_named(name)) ||
                 std::find(o.implementations.begin(), o.implementations.end(), name) != o.implementations.end();
    if (!asked) continue;
    std::string why = unavailable_reason(name, context);
    if (why.empty() && o.reverse && !reverse_unsupported_reason(name).empty()) continue;  // noted, not an error
    if (why.empty())
      chosen.push_back(name);
    else if (!o.implementations.empty())
      throw UsageError("--impl " + name + " cannot run in this job: " + why);
  }
  return chosen;
}

std::string kib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024);
  return text;
}

int run_halo(RunContext& context, const HaloOptions& o) {
  const std::vector<std::string> names = choose_implementations(context, o);
  const bool printing = context.rank() == 0;
  const bool table = o.format != HaloFormat::json, json = o.format != HaloFormat::table;
  HaloRun run{job_path(context), context.size(), context.ghostwire_nodes(), context.hosts(), context.mpi_library(),
              o.verify == HaloVerify::every ? "every" : "ghosts", o.reverse ? "reverse" : "forward"};
  HaloTable result_table(names);
  if (printing && table) {
    std::printf("# gw-bench halo: %d ranks, path %s (%d host%s, %d ghostwire node%s), %s\n", context.size(),
                run.path.c_str(), context.hosts(), context.hosts() == 1 ? "" : "s", context.ghostwire_nodes(),
                context.ghostwire_nodes() == 1 ? "" : "s", context.mpi_library().c_str());
    if (o.reverse)
      std::printf("# reverse exchange: ghost values sent back to their owners and summed, every owned sum checked\n");
    std::printf("# usec per exchange (the exchange calls alone, slowest rank; every owned cell%s rewritten between "
                "exchanges); median of %d repetition%s",
                o.reverse ? " and ghost" : "", o.repeats, o.repeats == 1 ? "" : "s");
    if (o.iterations > 0) std::printf(" of %ld exchanges\n", o.iterations);
    else std::printf(" of ~%.3g s each\n", o.min_time);
    std::printf("# implementations:");
    for (const std::string& name : names) std::printf(" %s", name.c_str());
    std::printf("\n");
    for (const std::string& name : exchanger_names())
      if (std::string why = unavailable_reason(name, context); !why.empty())
        std::printf("# not here: %s (%s)\n", name.c_str(), why.c_str());
    if (o.reverse)
      for (const std::string& name : exchanger_names())
        if (std::string_view why = reverse_unsupported_reason(name); !why.empty())
          std::printf("# no reverse exchange: %s (%.*s)\n", name.c_str(), static_cast<int>(why.size()), why.data());
    result_table.print_heading(stdout);
  }

  std::vector<HaloResult> results;
  std::vector<std::string> descriptions, not_applicable;
  Deadline deadline = o.deadline;
  std::size_t measured_cases = 0;
  for (std::size_t point = 0; point < o.cases.size(); ++point) {
    const CaseSpec& spec = o.cases[point];
    // The case's share begins before its set-up (a point cloud's partitioning takes a while).
    if (deadline.set() && !rank0_decides(deadline.begin_point(static_cast<int>(o.cases.size() - point),
                                                              Deadline::clock::now()))) {
      deadline.note_skipped(spec.name);
      continue;
    }
    ++measured_cases;
    HaloCase c = spec.kind == CaseSpec::Kind::unstructured
                     ? make_point_cloud_case(spec, o.point_cloud, context.rank(), context.size())
                     : make_grid_case(spec, context.rank(), context.size());
    CaseStats stats = case_stats(c);
    std::vector<std::string> case_names;
    for (const std::string& name : names)
      if (std::string_view why = case_unsupported_reason(name, c); why.empty())
        case_names.push_back(name);
      else
        not_applicable.push_back(name + " on " + c.name + " (" + std::string(why) + ")");
    std::vector<HaloResult> row = measure_case(context, o, c, stats, case_names, deadline);
    descriptions.push_back("# " + c.name + ": " + c.description + "; per exchange " + std::to_string(stats.messages) +
                           " messages, " + kib(stats.bytes_per_exchange) + " (all ranks), at most " +
                           std::to_string(stats.neighbours) + " neighbour" + (stats.neighbours == 1 ? "" : "s") +
                           " per rank");
    if (printing && table) result_table.print_row(stdout, c.name, row);
    if (printing && json && !table)
      for (const HaloResult& r : row) std::printf("%s\n", halo_json_line(r, run).c_str());
    std::fflush(stdout);
    results.insert(results.end(), row.begin(), row.end());
  }
  if (printing) {
    if (table)
      for (const std::string& line : descriptions) std::printf("%s\n", line.c_str());
    if (json && table)
      for (const HaloResult& r : results) std::printf("%s\n", halo_json_line(r, run).c_str());
    const char* checked = o.reverse ? (o.verify == HaloVerify::every
                                           ? "reverse sums: every cell after every exchange"
                                           : "reverse sums: ghosts rewritten and owned sums checked every exchange, every cell after each repetition")
                                    : (o.verify == HaloVerify::every
                                           ? "every cell after every exchange"
                                           : "owned cells rewritten and received ghosts checked every exchange, every cell after each repetition");
    for (const std::string& line : not_applicable) std::printf("# not applicable: %s\n", line.c_str());
    std::string skipped = not_applicable.empty() ? "" : "; " + std::to_string(not_applicable.size()) + " not applicable";
    std::printf("# gw-bench halo: %zu results (%zu cases x %zu implementations%s), every exchange verified (%s)\n",
                results.size(), measured_cases, names.size(), skipped.c_str(), checked);
    deadline.print_cuts(stdout, o.reverse ? "gw-bench halo --reverse" : "gw-bench halo");
    std::fflush(stdout);
  }
  end_peer_sessions();
  MPI_Barrier(MPI_COMM_WORLD);
  return 0;
}

}  // namespace

Subcommand halo_subcommand() {
  Subcommand s;
  s.name = "halo";
  s.summary = "halo exchange of 2-D, 3-D and unstructured cases: ghostwire vs MPI styles vs PetscSF and Global Arrays vs the raw floor";
  s.usage = "[--cases LIST] [--impl LIST] [--points N] [--min-time SEC | --iterations N] [--repeats N] [--reverse] ...";
  s.parse = [](const std::vector<std::string>& args) -> Job {
    HaloOptions o = parse_halo_options(args);
    return [o](RunContext& context) { return run_halo(context, o); };
  };
  s.options_help = [] { return halo_options_help(); };
  return s;
}

}  // namespace gwbench
