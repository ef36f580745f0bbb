// SPDX-License-Identifier: BSD-3-Clause
// gw-cloverleaf's option parser and --help (options.hpp), and the runs of a side-by-side job;
// exchange names are checked against the registry (exchange.hpp) (see docs/cloverleaf.md,
// "Using it").
#include "options.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "deck.hpp"
#include "exchange.hpp"
#include "usage_error.hpp"

namespace cloverleaf {
namespace {

// The items of a comma-separated option value; an empty item or one given twice is an error.
std::vector<std::string> list_items(const std::string& option, const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (item.empty()) {
      throw UsageError(option + " '" + text + "': an empty item; give names separated by single commas, e.g. " +
                       option + " " + (option == "--sync" ? "p2p,global" : "mpi,gw-grid"));
    }
    if (std::find(items.begin(), items.end(), item) != items.end())
      throw UsageError(option + " '" + text + "': '" + item + "' is listed twice");
    items.push_back(item);
    if (comma == std::string::npos) return items;
    start = comma + 1;
  }
}

// A whole number from 1 to `largest`, or UsageError "option 'text': expected what >= 1" (or "at
// most largest").
int positive_count(const std::string& option, const std::string& text, const char* what,
                   int largest = std::numeric_limits<int>::max()) {
  int n = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (error != std::errc() || end != text.data() + text.size() || n < 1)
    throw UsageError(option + " '" + text + "': expected " + what + " >= 1");
  if (n > largest)
    throw UsageError(option + " '" + text + "': expected " + what + " of at most " + std::to_string(largest));
  return n;
}

// Every round runs every (exchange, sync) combination from a fresh problem, and the job lists all
// its runs up front: a larger count is a typing mistake (found by fuzz/cloverleaf_options, where
// --rounds 368883685 asked for gigabytes of run list).
constexpr int largest_rounds = 10000;

}  // namespace

// Here, beside the parser of --sync, so the two spellings stay together.
const char* sync_name(Sync s) { return s == Sync::p2p ? "p2p" : "global"; }

std::string usage_text() {
  std::string text =
      "usage: gw-cloverleaf [options] [DECK]\n"
      "CloverLeaf (UK-MAC CloverLeaf_ref 1.3) on ghostwire grids: 2-D compressible Euler equations,\n"
      "staggered-grid Lagrangian-Eulerian hydrodynamics. Reads the reference's clover.in deck format.\n"
      "\n"
      "  DECK               the input deck (default ./clover.in; decks in apps/cloverleaf/decks)\n"
      "  --exchange NAME    how ghost cells shared between chunks are filled (default mpi)\n"
      "  --sync p2p|global  p2p: each exchange completes per neighbour (default); global: also a barrier\n"
      "                     of all ranks after every exchange\n"
      "                     Both take comma-separated lists (--exchange mpi,gw-grid --sync p2p,global):\n"
      "                     every combination runs in one job, one after another, each from the start\n"
      "  --rounds R         run every combination R times (default 1), in a rotated order per round;\n"
      "                     with more than one run each writes its own output file (FILE with\n"
      "                     .<exchange>.<sync>.r<round> before the extension) and JSON line (with \"round\")\n"
      "  --out FILE         the reference's output file (default ./clover.out)\n"
      "  --json FILE        also append the final JSON line to FILE (it is always printed on stdout)\n"
      "  --profile          print the per-kernel profile (as profiler_on in the deck)\n"
      "  --quiet            no per-step lines on stdout (they still go to the output file)\n"
      "  --end-step N       stop after N steps, whatever the deck's end_step\n"
      "  --help             this text\n"
      "\n"
      "exchanges in this build:\n";
  for (const RegisteredExchange& e : ExchangeRegistry::instance().entries()) {
    text += "  " + e.name + std::string(e.name.size() < 12 ? 12 - e.name.size() : 1, ' ') + e.description + "\n";
  }
  text += "\ndeck keywords (between *clover and *endclover; key=value or key value):\n  " + std::string(deck_keywords()) +
          "\nstate N keywords: " + std::string(state_keywords()) + "\n";
  return text;
}

Options parse_options(std::span<char* const> arguments) {
  Options o;
  bool deck_given = false;
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    const std::string arg = arguments[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= arguments.size()) throw UsageError(arg + ": missing value");
      return arguments[++i];
    };
    if (arg == "--help" || arg == "-h") {
      o.help = true;
    } else if (arg == "--exchange") {
      const std::string list = value();
      o.exchanges = list_items(arg, list);
      for (const std::string& name : o.exchanges) {
        try {
          check_exchange_name(name);
        } catch (const UsageError& error) {
          if (o.exchanges.size() == 1) throw;
          throw UsageError(std::string(error.what()) + " (in the list '" + list + "')");
        }
      }
    } else if (arg == "--sync") {
      const std::string list = value();
      o.syncs.clear();
      for (const std::string& s : list_items(arg, list)) {
        if (s == "p2p") o.syncs.push_back(Sync::p2p);
        else if (s == "global") o.syncs.push_back(Sync::global);
        else
          throw UsageError("--sync '" + s + "': expected p2p or global" +
                           (s == list ? "" : " (in the list '" + list + "')"));
      }
    } else if (arg == "--rounds") {
      o.rounds = positive_count(arg, value(), "a number of rounds", largest_rounds);
    } else if (arg == "--out") {
      o.out = value();
    } else if (arg == "--json") {
      o.json = value();
    } else if (arg == "--profile") {
      o.profile = true;
    } else if (arg == "--quiet") {
      o.quiet = true;
    } else if (arg == "--end-step") {
      o.end_step = positive_count(arg, value(), "a number of steps");
    } else if (!arg.empty() && arg[0] == '-') {
      throw UsageError("unknown option '" + arg + "' (--help lists the options)");
    } else if (deck_given) {
      throw UsageError("'" + arg + "': a second deck (the first is '" + o.deck + "'); give one deck");
    } else {
      o.deck = arg;
      deck_given = true;
    }
  }
  o.exchange = o.exchanges.front();
  o.sync = o.syncs.front();
  return o;
}

std::vector<RunPlan> run_plans(const Options& options) {
  std::vector<RunPlan> combinations;
  for (const std::string& exchange : options.exchanges)
    for (Sync sync : options.syncs) combinations.push_back({exchange, sync, 0});
  std::vector<RunPlan> plans;
  const std::size_t count = combinations.size();
  for (int round = 1; round <= options.rounds; ++round) {
    for (std::size_t i = 0; i < count; ++i) {
      RunPlan plan = combinations[(static_cast<std::size_t>(round - 1) + i) % count];
      plan.round = round;
      plans.push_back(plan);
    }
  }
  return plans;
}

bool side_by_side(const Options& options) {
  return options.rounds > 1 || options.exchanges.size() > 1 || options.syncs.size() > 1;
}

std::string run_output_file(const std::string& out, const RunPlan& run) {
  const std::string tag = "." + run.exchange + "." + sync_name(run.sync) + ".r" + std::to_string(run.round);
  const std::size_t slash = out.find_last_of('/');
  const std::size_t dot = out.find_last_of('.');
  const bool has_extension = dot != std::string::npos && dot > (slash == std::string::npos ? 0 : slash + 1);
  return has_extension ? out.substr(0, dot) + tag + out.substr(dot) : out + tag;
}

}  // namespace cloverleaf
