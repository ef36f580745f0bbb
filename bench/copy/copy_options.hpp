// SPDX-License-Identifier: BSD-3-Clause
// gw-copy-bench's command line: sources, sizes, implementations, repeats, the cache flush.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace copybench {

struct Options {
  std::vector<std::string> sources;  // local, peer, remote
  std::vector<std::size_t> sizes;    // bytes, multiples of 8 (the array holds doubles)
  std::vector<std::string> impls;    // memcpy first (the ceiling every other is divided by)
  int repeats = 11;
  std::size_t flush_bytes = 0;       // bytes read between timed copies; default 2x the LLC
  std::string corrupt;               // test only: flip a byte of this impl's checked copy
};

// The implementations this binary has (dash-copy only when built with GHOSTWIRE_DASH_DIR).
std::vector<std::string> known_impls();
// Throws gwbench::UsageError on a bad option; prints the help and exits on --help.
Options parse_options(int argc, char** argv);
// The last-level cache as sysconf reports it (0 if unknown).
std::size_t llc_bytes();

}  // namespace copybench
