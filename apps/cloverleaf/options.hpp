// The command line of gw-cloverleaf:
//   gw-cloverleaf [--exchange NAME] [--sync p2p|global] [--out FILE] [--json FILE] [--profile]
//                 [--quiet] [--end-step N] [DECK]
#pragma once

#include <span>
#include <string>

#include "halo.hpp"

namespace cloverleaf {

struct Options {
  std::string deck = "./clover.in";
  std::string exchange = "mpi";
  Sync sync = Sync::p2p;
  std::string out = "./clover.out";
  std::string json;      // also append the JSON line to this file
  bool profile = false;  // the profiler table, as profiler_on in the deck
  bool quiet = false;    // no per-step lines on standard output
  int end_step = 0;      // > 0: overrides the deck's end_step
  bool help = false;
};

// Throws UsageError naming the option and the value.
Options parse_options(std::span<char* const> arguments);
std::string usage_text();

}  // namespace cloverleaf
