#include "options.hpp"

#include <charconv>

#include "deck.hpp"
#include "exchange.hpp"
#include "usage_error.hpp"

namespace cloverleaf {

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
      "  --out FILE         the reference's output file (default ./clover.out)\n"
      "  --json FILE        also append the final JSON line to FILE (it is always printed on stdout)\n"
      "  --profile          print the per-kernel profile (as profiler_on in the deck)\n"
      "  --quiet            no per-step lines on stdout (they still go to the output file)\n"
      "  --end-step N       stop after N steps, whatever the deck's end_step\n"
      "  --help             this text\n"
      "\n"
      "exchanges in this build:\n";
  for (const ExchangeInfo& e : available_exchanges()) {
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
      o.exchange = value();
      check_exchange_name(o.exchange);
    } else if (arg == "--sync") {
      const std::string s = value();
      if (s == "p2p") o.sync = Sync::p2p;
      else if (s == "global") o.sync = Sync::global;
      else throw UsageError("--sync '" + s + "': expected p2p or global");
    } else if (arg == "--out") {
      o.out = value();
    } else if (arg == "--json") {
      o.json = value();
    } else if (arg == "--profile") {
      o.profile = true;
    } else if (arg == "--quiet") {
      o.quiet = true;
    } else if (arg == "--end-step") {
      const std::string s = value();
      int n = 0;
      auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), n);
      if (error != std::errc() || end != s.data() + s.size() || n < 1)
        throw UsageError("--end-step '" + s + "': expected a number of steps >= 1");
      o.end_step = n;
    } else if (!arg.empty() && arg[0] == '-') {
      throw UsageError("unknown option '" + arg + "' (--help lists the options)");
    } else if (deck_given) {
      throw UsageError("'" + arg + "': a second deck (the first is '" + o.deck + "'); give one deck");
    } else {
      o.deck = arg;
      deck_given = true;
    }
  }
  return o;
}

}  // namespace cloverleaf
