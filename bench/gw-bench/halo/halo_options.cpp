// SPDX-License-Identifier: BSD-3-Clause
#include "halo_options.hpp"

#include <algorithm>

#include "../option_values.hpp"
#include "../usage_error.hpp"
#include "exchanger.hpp"

namespace gwbench::halo {
namespace {

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = std::min(text.find(',', start), text.size());
    items.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return items;
}

std::vector<std::string> parse_implementations(const std::string& text) {
  std::vector<std::string> chosen;
  const auto& known = exchanger_names();
  for (const std::string& name : split(text)) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw UsageError("--impl '" + text + "': unknown implementation '" + name + "' (known: " + list + ")");
    }
    if (std::find(chosen.begin(), chosen.end(), name) == chosen.end()) chosen.push_back(name);
  }
  return chosen;
}

std::vector<CaseSpec> parse_cases(const std::vector<std::string>& names) {
  std::vector<CaseSpec> cases;
  for (const std::string& name : names) {
    CaseSpec spec = parse_case(name);
    if (spec.kind == CaseSpec::Kind::unstructured && !point_cloud_available())
      throw UsageError("--cases: 'unstructured' needs METIS, and this gw-bench was built without it (install "
                       "libmetis-dev and reconfigure)");
    if (std::none_of(cases.begin(), cases.end(), [&](const CaseSpec& c) { return c.name == name; }))
      cases.push_back(spec);
  }
  return cases;
}

}  // namespace

HaloOptions parse_halo_options(const std::vector<std::string>& args) {
  HaloOptions o;
  std::vector<std::string> case_names = default_case_names();
  if (!point_cloud_available()) case_names.pop_back();  // "unstructured" is last
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string option = args[i], value;
    if (option == "--reverse") {  // the one option without a value
      o.reverse = true;
      continue;
    }
    if (std::size_t equals = option.find('='); option.rfind("--", 0) == 0 && equals != std::string::npos) {
      value = option.substr(equals + 1);
      option.resize(equals);
    } else if (option.rfind("--", 0) == 0) {
      if (i + 1 >= args.size()) throw UsageError(option + " needs a value");
      value = args[++i];
    } else {
      throw UsageError("unexpected argument '" + option + "' (options start with --)");
    }
    if (option == "--cases") case_names = value == "all" ? default_case_names() : split(value);
    else if (option == "--impl") o.implementations = parse_implementations(value);
    else if (option == "--points") o.point_cloud.points_per_rank = parse_count(option, value, 16, 100'000'000);
    else if (option == "--knn") o.point_cloud.neighbours = static_cast<int>(parse_count(option, value, 1, 64));
    else if (option == "--min-time") o.min_time = parse_seconds(option, value);
    else if (option == "--iterations") o.iterations = parse_count(option, value, 1, 1'000'000'000);
    else if (option == "--repeats") o.repeats = static_cast<int>(parse_count(option, value, 1, 1000));
    else if (option == "--warmup") o.warmup = parse_count(option, value, 0, 1'000'000'000);
    else if (option == "--skip-exchange") o.skip_exchange = parse_count(option, value, 1, 1'000'000'000);
    // The clock starts here, before MPI_Init: the launch's start counts against the deadline too.
    else if (option == "--deadline") o.deadline = Deadline(parse_seconds(option, value, 86400), Deadline::clock::now());
    else if (option == "--verify") {
      if (value == "ghosts") o.verify = HaloVerify::ghosts;
      else if (value == "every") o.verify = HaloVerify::every;
      else throw UsageError("--verify '" + value + "': expected ghosts or every");
    } else if (option == "--format") {
      if (value == "table") o.format = HaloFormat::table;
      else if (value == "json") o.format = HaloFormat::json;
      else if (value == "both") o.format = HaloFormat::both;
      else throw UsageError("--format '" + value + "': expected table, json or both");
    } else {
      throw UsageError("unknown option '" + option + "'");
    }
  }
  o.cases = parse_cases(case_names);
  return o;
}

std::string halo_options_help() {
  std::string text =
      "  --cases LIST       comma separated (default: all of them):\n"
      "                       2d-N-hH      N^2 doubles, halo width H, faces (2d-512-h1, 2d-512-h2,\n"
      "                                    2d-2048-h1, 2d-2048-h2)\n"
      "                       3d-N-7pt     N^3 doubles, halo 1, faces (3d-64-7pt, 3d-128-7pt)\n"
      "                       3d-N-27pt    the same with edges and corners (3d-64-27pt, 3d-128-27pt)\n"
      "                       unstructured a METIS partition of a random 3-D point cloud's k-NN graph\n"
      "                     grids are non-periodic, block-decomposed by MPI_Dims_create; any N works\n"
      "  --points N         unstructured: points per rank (default 50000)\n"
      "  --knn K            unstructured: neighbours per point in the k-NN graph (default 8)\n"
      "  --impl LIST        implementations to compare (default: all that can run in this job):\n";
  for (const auto& name : exchanger_names())
    text += "                       " + name + std::string(15 - std::min<std::size_t>(14, name.size()), ' ') +
            std::string(exchanger_summary(name)) + "\n";
  text +=
      "  --min-time SEC     aim for this long per repetition of a case and implementation, the steps\n"
      "                     between exchanges included (default 0.25); the time reported is that of\n"
      "                     the exchanges alone\n"
      "  --iterations N     a fixed number of exchanges per repetition instead of the adaptive count\n"
      "  --repeats N        repetitions, implementations interleaved; the median is reported (default 5)\n"
      "  --warmup N         exchanges before calibrating (default 10)\n"
      "  --deadline SEC     end within SEC seconds of the start: the time left is shared out over the\n"
      "                     cases still to measure, and a case's repetitions stop when the next would\n"
      "                     not end within its share (at least one; JSON repeats_asked says how many were\n"
      "                     asked); a \"# budget:\" line names what was cut (default: none)\n"
      "  --verify ghosts|every  ghosts (default): before every exchange each rank rewrites every owned\n"
      "                     element (the next exchange's values), after it checks every received ghost;\n"
      "                     every cell is checked after each repetition. every: every cell rewritten\n"
      "                     and checked around every exchange (slow: for tests, not timings)\n"
      "  --reverse          time the reverse exchange instead: ghost values sent back to their owners\n"
      "                     and added (gw: Plan::reverse_exchange, sum); every owned sum checked\n"
      "                     exactly. Implementations without one are left out with a note\n"
      "  --format table|json|both   what to print on standard output (default both)\n"
      "  --skip-exchange N  for tests of the verification: step N of every timed loop of the first\n"
      "                     implementation leaves the exchange out, so the check must find stale ghosts\n";
  return text;
}

}  // namespace gwbench::halo
