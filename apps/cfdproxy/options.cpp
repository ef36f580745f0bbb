// SPDX-License-Identifier: BSD-3-Clause
// gw-cfdproxy's command line: --help and the parser (docs/cfdproxy.md, "Running it"). The variant
// names are those registered in the build (exchange.hpp), checked here so that a wrong one stops
// the job before the mesh is read.
#include "options.hpp"

#include <mpi.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <sstream>

#include "exchange.hpp"
#include "usage_error.hpp"

namespace cfdproxy {
namespace {

int parse_count(std::string_view option, std::string_view text, int minimum) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < minimum)
    throw UsageError(std::string(option) + ": expected an integer >= " + std::to_string(minimum) + ", got '" +
                     std::string(text) + "'");
  return value;
}

std::vector<std::string> split(std::string_view text) {
  std::vector<std::string> items;
  std::string item;
  std::istringstream in{std::string(text)};
  while (std::getline(in, item, ',')) items.push_back(item);
  if (!text.empty() && text.back() == ',') items.emplace_back();
  return items;
}

constexpr int max_threads = 1024;

// OMP_NUM_THREADS as OpenMP reads it for the outermost level (its first entry), or 1 if unset.
int default_threads() {
  const char* text = std::getenv("OMP_NUM_THREADS");
  if (text == nullptr || *text == '\0') return 1;
  std::string_view value(text);
  value = value.substr(0, value.find(','));
  try {
    return parse_count("OMP_NUM_THREADS", value, 1);
  } catch (const UsageError&) {
    throw UsageError("OMP_NUM_THREADS: expected a thread count >= 1, got '" + std::string(text) +
                     "' (or give --threads N)");
  }
}

int parse_threads(std::string_view text) {
  const int threads = parse_count("--threads", text, 1);
  if (threads > max_threads)
    throw UsageError("--threads: at most " + std::to_string(max_threads) + ", got '" + std::string(text) + "'");
  return threads;
}

// --variant all: every registered variant, in listing order.
std::vector<std::string> every_variant() {
  std::vector<std::string> names;
  for (const RegisteredExchange& variant : ExchangeRegistry::instance().entries()) names.push_back(variant.name);
  return names;
}

}  // namespace

// Here rather than in exchange.cpp: the options fuzzer links this file without the exchanges.
std::string unavailable_variant(const std::string& variant) {
  if (variant == "mpi-partitioned" && !ExchangeRegistry::instance().find(variant))
    return "mpi-partitioned needs MPI-4 partitioned communication (MPI_Psend_init, MPI_Pready, MPI_Parrived), "
           "which the MPI of this build lacks (it reports MPI " + std::to_string(MPI_VERSION) + "." +
           std::to_string(MPI_SUBVERSION) + "; Open MPI 4.1 has none); run the MPICH build's gw-cfdproxy "
           "(build-mpich/apps/cfdproxy/gw-cfdproxy, scripts/launch --mpi mpich)";
  return "";
}

const char* partition_name(PartitionKind kind) { return kind == PartitionKind::original ? "original" : "metis"; }
const char* init_name(InitialField init) { return init == InitialField::one ? "one" : "hash"; }

std::string usage_text(std::string_view program) {
  const ExchangeRegistry& variants = ExchangeRegistry::instance();
  std::ostringstream text;
  text << "usage: " << program << " [options]\n"
       << "CFD-Proxy: a Green-Gauss gradient of 7 variables over an unstructured dual grid, the halo\n"
          "exchange of the gradients (7 x 3 doubles per ghost point), a pseudo-viscous flux.\n\n"
          "  --mesh SPEC            the dual grid: the prefix of the NetCDF domain files (as the reference's\n"
          "                         GRID_PREFIX, e.g. .../dualgrid) or their directory, or generated:N (a\n"
          "                         generated mesh of about N points, docs/cfdproxy.md). Default: the DLR-F6\n"
          "                         mesh in ../shared/data of the source tree, else generated:200000\n"
          "  --partition KIND       original (the files' domains, whole domains per rank; the rank count\n"
          "                         must divide them) or metis (k-way on the point graph, any rank count;\n"
          "                         default)\n"
          "  --init KIND            one (var = 1 everywhere, the reference's; default) or hash (a value per\n"
          "                         point and variable from its global id)\n"
          "  --variant LIST         "
       << variants.names() << ", or several separated by commas (run side by side,\n"
       << "                         round by round, in a rotated order); all = " << variants.names(",")
       << ". Default gw\n"
          "  --threads N            OpenMP threads per rank (default OMP_NUM_THREADS, else 1): each sweeps\n"
          "                         its share of the faces and sends the messages it completes; the\n"
          "                         checksums are the same at any thread count. More than 1 needs\n"
          "                         MPI_THREAD_MULTIPLE for every variant but commfree\n"
          "  --iterations N         iterations per round (default 100)\n"
          "  --rounds R             timed rounds per variant (default 1); times are medians over rounds\n"
          "  --warmup N             untimed iterations of each variant before the rounds (default 2: the\n"
          "                         first iterations touch pages and caches, 2x slower)\n"
          "  --partition-report P1,P2,...\n"
          "                         print owned and halo points per part of METIS partitions into P parts\n"
          "                         (min/median/max, add/own) and one JSON line per P; no kernel runs\n"
          "  --output FILE          also write the checksum lines and JSON lines to FILE\n"
          "  --check-ghosts         after each exchanging variant's last round, compare every ghost\n"
          "                         point's gradients with its owner's, bit for bit (exit 1 if any differs)\n"
          "  --help                 this text\n";
  return text.str();
}

Options parse_options(int argc, char** argv) {
  Options o;
  bool threads_given = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::string_view value;
    std::string name(arg);
    if (auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
      name = std::string(arg.substr(0, eq));
      value = arg.substr(eq + 1);
    }
    auto next = [&]() -> std::string_view {
      if (!value.empty() || arg.find('=') != std::string_view::npos) return value;
      if (i + 1 >= argc) throw UsageError(name + ": missing value");
      return argv[++i];
    };
    if (name == "--help" || name == "-h") {
      o.help = true;
    } else if (name == "--mesh") {
      o.mesh = std::string(next());
      if (o.mesh.empty()) throw UsageError("--mesh: empty");
      o.mesh_given = true;
    } else if (name == "--partition") {
      std::string_view v = next();
      if (v == "original") o.partition = PartitionKind::original;
      else if (v == "metis") o.partition = PartitionKind::metis;
      else throw UsageError("--partition: expected original or metis, got '" + std::string(v) + "'");
    } else if (name == "--init") {
      std::string_view v = next();
      if (v == "one") o.init = InitialField::one;
      else if (v == "hash") o.init = InitialField::hash;
      else throw UsageError("--init: expected one or hash, got '" + std::string(v) + "'");
    } else if (name == "--variant") {
      std::string_view v = next();
      o.variants = v == "all" ? every_variant() : split(v);
      if (o.variants.empty()) throw UsageError("--variant: empty");
      for (const std::string& variant : o.variants) {
        if (const std::string reason = unavailable_variant(variant); !reason.empty())
          throw UsageError("--variant: " + reason);
        if (!ExchangeRegistry::instance().find(variant))
          throw UsageError("--variant: unknown variant '" + variant + "' (expected " +
                           ExchangeRegistry::instance().names() + " or all)");
        if (std::count(o.variants.begin(), o.variants.end(), variant) > 1)
          throw UsageError("--variant: '" + variant + "' given twice");
      }
    } else if (name == "--threads") {
      o.threads = parse_threads(next());
      threads_given = true;
    } else if (name == "--iterations") {
      o.iterations = parse_count(name, next(), 1);
    } else if (name == "--warmup") {
      o.warmup = parse_count(name, next(), 0);
    } else if (name == "--rounds") {
      o.rounds = parse_count(name, next(), 1);
    } else if (name == "--partition-report") {
      for (const std::string& part : split(next())) o.report_parts.push_back(parse_count(name, part, 1));
      if (o.report_parts.empty()) throw UsageError("--partition-report: expected part counts, e.g. 2,4,8");
    } else if (name == "--output") {
      o.output = std::string(next());
      if (o.output.empty()) throw UsageError("--output: empty file name");
    } else if (name == "--check-ghosts") {
      o.check_ghosts = true;
    } else {
      throw UsageError("unknown option '" + std::string(arg) + "' (--help lists the options)");
    }
  }
  if (!threads_given && !o.help) o.threads = default_threads();
  return o;
}

int threads_before_parsing(int argc, char** argv) {
  try {
    return parse_options(argc, argv).threads;
  } catch (const UsageError&) {
    return 1;
  }
}

}  // namespace cfdproxy
