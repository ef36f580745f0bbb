// SPDX-License-Identifier: BSD-3-Clause
#include "copy_options.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "../gw-bench/size_list.hpp"
#include "../gw-bench/usage_error.hpp"

namespace copybench {
namespace {

constexpr const char* help_text =
    "gw-copy-bench: DASH's copy study. Rank 0 copies a range of a gw::Array<double> whose source is\n"
    "its own block, a node peer's or another node's into a local buffer, timed against memcpy (the\n"
    "ceiling) and MPI_Get, the source out of cache (a read of --flush-bytes before every timed copy).\n"
    "\n"
    "  gw-copy-bench [--source all|local,peer,remote] [--sizes 8,64,...,64M] [--impl all|NAME,...]\n"
    "                [--repeats 11] [--flush-bytes BYTES]\n"
    "\n"
    "  --source       where the copied range lives (default all; a source this job has no rank for is\n"
    "                 skipped with a note: peer needs 2 ranks on rank 0's node, remote 2 nodes)\n"
    "  --sizes        bytes per copy, multiples of 8 (K, M: binary; ranges like 8-64M double)\n"
    "  --impl         memcpy, gw-copy, gw-copy-async, mpi-get, dash-copy (if built with DASH)\n"
    "  --repeats      timed copies per (source, size, impl); the median is reported\n"
    "  --flush-bytes  bytes read between timed copies to evict the source (default 2x the LLC; 0: none)\n"
    "\n"
    "Output: a table, and one JSON line per (source, size, impl) with \"bench\":\"copy\".\n";

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

std::vector<std::string> checked_list(const std::string& option, const std::string& text,
                                      const std::vector<std::string>& known) {
  if (text == "all") return known;
  std::vector<std::string> chosen = split(text);
  if (chosen.empty()) throw gwbench::UsageError(option + " is empty");
  for (const auto& name : chosen)
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const auto& k : known) list += " " + k;
      throw gwbench::UsageError(option + ": unknown '" + name + "'; known:" + list);
    }
  return chosen;
}

long parse_count(const std::string& option, const std::string& text, long low) {
  char* end = nullptr;
  long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < low)
    throw gwbench::UsageError(option + " '" + text + "': expected an integer >= " + std::to_string(low));
  return value;
}

std::size_t parse_bytes(const std::string& option, const std::string& text) {
  if (text == "0") return 0;
  try {
    auto sizes = gwbench::parse_size_list(text);
    if (sizes.size() == 1) return sizes[0];
  } catch (const gwbench::UsageError&) {
  }
  throw gwbench::UsageError(option + " '" + text + "': expected one byte count like 0, 1M or 600M");
}

}  // namespace

std::vector<std::string> known_impls() {
  std::vector<std::string> impls = {"memcpy", "gw-copy", "gw-copy-async", "mpi-get"};
#if GW_COPY_HAVE_DASH
  impls.push_back("dash-copy");
#endif
  return impls;
}

std::size_t llc_bytes() {
  for (int level : {_SC_LEVEL4_CACHE_SIZE, _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE}) {
    long bytes = sysconf(level);
    if (bytes > 0) return static_cast<std::size_t>(bytes);
  }
  return 0;
}

Options parse_options(int argc, char** argv) {
  Options o;
  std::string sources = "all", sizes = "8,64,512,4K,32K,64K,256K,1M,4M,16M,64M", impls = "all";
  // 2x the LLC, as the paper's flush; 64 MiB where sysconf does not know the cache.
  o.flush_bytes = llc_bytes() ? 2 * llc_bytes() : std::size_t{64} << 20;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(help_text, stdout);
      std::exit(0);
    }
    if (i + 1 >= argc) throw gwbench::UsageError("unknown option or missing value: '" + arg + "' (see --help)");
    std::string value = argv[++i];
    if (arg == "--source") sources = value;
    else if (arg == "--sizes") sizes = value;
    else if (arg == "--impl") impls = value;
    else if (arg == "--repeats") o.repeats = static_cast<int>(parse_count(arg, value, 1));
    else if (arg == "--flush-bytes") o.flush_bytes = parse_bytes(arg, value);
    else if (arg == "--corrupt") o.corrupt = value;
    else throw gwbench::UsageError("unknown option '" + arg + "' (see --help)");
  }
  o.sources = checked_list("--source", sources, {"local", "peer", "remote"});
  o.sizes = gwbench::parse_size_list(sizes);
  for (std::size_t s : o.sizes)
    if (s % sizeof(double))
      throw gwbench::UsageError("--sizes: " + std::to_string(s) + " is not a multiple of 8 (the array holds doubles)");
  std::vector<std::string> chosen = checked_list("--impl", impls, known_impls());
  // memcpy is the ceiling every ratio is taken against: always timed, first.
  o.impls = {"memcpy"};
  for (auto& name : chosen)
    if (name != "memcpy") o.impls.push_back(name);
  return o;
}

}  // namespace copybench
