// SPDX-License-Identifier: BSD-3-Clause
// gw-dist-bench: ghostwire's Grid halo update against the same exchange written with a raw Plan,
// MPI_Neighbor_alltoallw and Isend/Irecv, and the Jacobi example against the same program in plain
// MPI, side by side in one job. Every point is the median over repeats of the slowest rank's time
// per operation; variants take turns within each repeat, so a busy machine slows all alike.
//
//   gw-dist-bench [--variant all|NAME,...] [--sizes 1024,4096] [--repeats 5] [--min-time 0.2] [--count N]
//                 [--deadline SEC] [--quick]
// --count fixes the operations per repeat (for instruction counts under callgrind); --quick is a
// smoke test (256 and 1024, 3 short repeats), not a measurement. --deadline (bench/run_suite.py:
// the step's share of the suite's time budget) shares the time left out over the sizes still to
// measure and stops a size's repeats when the next would not end within its share (at least one;
// all variants of a repeat always run, so the pairs stay whole); a "# budget:" line says what it cut.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../gw-bench/deadline.hpp"
#include "variants.hpp"

namespace distbench {

std::vector<VariantInfo> halo_variants();
std::vector<VariantInfo> jacobi_variants();

const std::vector<VariantInfo>& variants() {
  static const std::vector<VariantInfo> all = [] {
    std::vector<VariantInfo> v = halo_variants();
    for (auto& j : jacobi_variants()) v.push_back(std::move(j));
    return v;
  }();
  return all;
}

namespace {

// The median as statistics.median takes it (run_suite.py re-judges these goals in Python): the
// mean of the two middle values for an even count.
double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

struct Options {
  std::vector<std::string> variants;
  std::vector<Index> sizes = {1024, 4096};
  int repeats = 5;
  double min_time = 0.2;  // seconds per variant and repeat
  int count = 0;          // operations per repeat; 0: calibrated to min_time
  gwbench::Deadline deadline;
};

[[noreturn]] void usage_error(const std::string& message) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) std::fprintf(stderr, "gw-dist-bench: %s\n", message.c_str());
  MPI_Finalize();
  std::exit(2);
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

long parse_number(const std::string& option, const std::string& text, long low) {
  char* end = nullptr;
  long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < low)
    usage_error(option + " '" + text + "': expected an integer >= " + std::to_string(low));
  return value;
}

Options parse(int argc, char** argv) {
  Options o;
  std::string variant = "all";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage_error(arg + ": missing value");
      return argv[++i];
    };
    if (arg == "--variant") {
      variant = value();
    } else if (arg == "--sizes") {
      o.sizes.clear();
      for (const auto& s : split(value())) o.sizes.push_back(parse_number("--sizes", s, 4));
    } else if (arg == "--repeats") {
      o.repeats = static_cast<int>(parse_number("--repeats", value(), 1));
    } else if (arg == "--min-time") {
      std::string text = value();
      o.min_time = std::atof(text.c_str());
      if (!(o.min_time > 0)) usage_error("--min-time '" + text + "': expected seconds > 0");
    } else if (arg == "--count") {
      o.count = static_cast<int>(parse_number("--count", value(), 1));
    } else if (arg == "--deadline") {
      std::string text = value();
      char* end = nullptr;
      double seconds = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !std::isfinite(seconds) || seconds <= 0)
        usage_error("--deadline '" + text + "': expected seconds > 0");
      // Parsed right after MPI_Init: the job's start is what the deadline counts from.
      o.deadline = gwbench::Deadline(seconds, gwbench::Deadline::clock::now());
    } else if (arg == "--quick") {
      o.sizes = {256, 1024};
      o.repeats = 3;
      o.min_time = 0.02;
    } else if (arg == "--help" || arg == "-h") {
      int rank = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      if (rank == 0) {
        std::printf("gw-dist-bench [--variant all|NAME,...] [--sizes 1024,4096] [--repeats 5] [--min-time 0.2] [--count N] "
                    "[--deadline SEC] [--quick]\n"
                    "variants:\n");
        for (const auto& v : variants()) std::printf("  %-16s %s\n", v.name.c_str(), v.description.c_str());
      }
      MPI_Finalize();
      std::exit(0);
    } else {
      usage_error("unknown option '" + arg + "' (see --help)");
    }
  }
  for (const auto& name : split(variant)) {
    if (name == "all") {
      for (const auto& v : variants()) o.variants.push_back(v.name);
      continue;
    }
    bool known = false;
    for (const auto& v : variants()) known |= v.name == name;
    if (!known) {
      std::string list;
      for (const auto& v : variants()) list += " " + v.name;
      usage_error("--variant '" + name + "': unknown variant; expected all or one of" + list);
    }
    o.variants.push_back(name);
  }
  return o;
}

const VariantInfo& info(const std::string& name) {
  for (const auto& v : variants())
    if (v.name == name) return v;
  std::abort();
}

double max_over_ranks(double value) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return value;
}

// Seconds per operation of one timed call, the slowest rank's.
double timed(Variant& v, int count) {
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  v.run(count);
  return max_over_ranks(MPI_Wtime() - start) / count;
}

std::string path_name(ghostwire::World& world) {
  if (world.node_count() == 1) return "intra";
  char name[MPI_MAX_PROCESSOR_NAME];
  int length = 0;
  MPI_Get_processor_name(name, &length);
  std::vector<char> all(static_cast<std::size_t>(MPI_MAX_PROCESSOR_NAME) * static_cast<std::size_t>(world.size()));
  MPI_Allgather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
  std::set<std::string> hosts;
  for (int r = 0; r < world.size(); ++r) hosts.insert(std::string(&all[static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME]));
  return hosts.size() > 1 ? "multihost" : "emulated";
}

// Operations per repeat for about `min_time`, the same on every rank (timed() reduces): probes of
// growing counts until one takes an eighth of it, then scaled. (Timing a single operation instead
// took the first update after the set-up, 10-20x slower than the rest, so the repeats of the halo
// variants lasted 10-30 ms rather than min_time, and their medians moved with the VM's jitter.)
int calibrated_count(Variant& v, double min_time) {
  long n = 1;
  for (;;) {
    const double per_operation = std::max(timed(v, static_cast<int>(n)), 1e-9);
    if (per_operation * static_cast<double>(n) >= min_time / 8 || n >= 1000000)
      return static_cast<int>(std::clamp(std::ceil(min_time / per_operation), 1.0, 1e6));
    n = std::min<long>(1000000, std::max(2 * n, static_cast<long>(std::ceil(1.5 * min_time / 8 / per_operation))));
  }
}

struct Result {
  std::string variant, kind, case_name;
  Index n = 0;
  double usec = 0, usec_min = 0, usec_max = 0;
  std::vector<double> per_repeat;  // seconds per operation, in repeat order
  int count = 0;
  bool verified = false;
  double checksum = 0;
};

// Rank 0's answer on every rank: the deadline's decisions are taken on one clock.
bool rank0_decides(bool answer) {
  int value = answer ? 1 : 0;
  MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return value != 0;
}

}  // namespace
}  // namespace distbench

int main(int argc, char** argv) {
  using namespace distbench;
  MPI_Init(&argc, &argv);
  Options options = parse(argc, argv);
  std::vector<Result> results;
  {
    ghostwire::World world;
    const int rank = world.rank();
    const std::string path = path_name(world);
    char mpi_version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(mpi_version, &length);
    std::string mpi = std::string(mpi_version).substr(0, std::string(mpi_version).find_first_of(",\n"));
    if (rank == 0)
      std::printf("gw-dist-bench: %d ranks, path %s, %s; median of %d repeats of >= %g s per variant\n", world.size(),
                  path.c_str(), mpi.c_str(), options.repeats, options.min_time);

    gwbench::Deadline deadline = options.deadline;
    using clock = gwbench::Deadline::clock;
    for (std::size_t point = 0; point < options.sizes.size(); ++point) {
      const Index n = options.sizes[point];
      if (deadline.set() &&
          !rank0_decides(deadline.begin_point(static_cast<int>(options.sizes.size() - point), clock::now()))) {
        deadline.note_skipped(std::to_string(n) + "^2");
        continue;
      }
      // All variants of this size exist together, so they take turns within each repeat. They are
      // rebuilt every repeat in a rotated order: where a variant's memory lands (and so its cache
      // and TLB behaviour) depends on the allocation order and changes a kernel's time by a few
      // percent, which the rotation spreads over all of them. The halo variants share one grid
      // (SharedState): at 4096^2 the strided column copies of a grid allocated early in a repeat
      // took twice as long as those of one allocated later, whatever the variant.
      const std::size_t count_of_variants = options.variants.size();
      std::vector<std::unique_ptr<Variant>> live(count_of_variants);
      std::vector<int> counts(count_of_variants, options.count);
      std::vector<std::vector<double>> times(count_of_variants);
      std::vector<bool> verified(count_of_variants, false);
      const auto first = clock::now();
      auto first_end = first;
      for (int r = 0; r < options.repeats; ++r) {
        SharedState shared;
        for (std::size_t k = 0; k < count_of_variants; ++k) {
          std::size_t v = (k + static_cast<std::size_t>(r)) % count_of_variants;
          live[v] = info(options.variants[v]).make(world, n, shared);
          live[v]->run(1);  // warm up (first touch, plan set-up)
        }
        // Timed in the same rotated order.
        for (std::size_t k = 0; k < count_of_variants; ++k) {
          std::size_t v = (k + static_cast<std::size_t>(r)) % count_of_variants;
          if (counts[v] == 0) counts[v] = calibrated_count(*live[v], options.min_time);
          times[v].push_back(timed(*live[v], counts[v]));
        }
        // The last repeat, asked for or the last within the deadline, verifies the halo variants.
        // A repeat's length: from the second on (the first calibrates every variant too).
        const int done = r + 1;
        const auto now = clock::now();
        if (done == 1) first_end = now;
        bool last = done == options.repeats;
        if (!last && deadline.set()) {
          const double mean = done == 1 ? std::chrono::duration<double>(now - first).count()
                                        : std::chrono::duration<double>(now - first_end).count() / (done - 1);
          last = !rank0_decides(deadline.another_fits(mean, now, done, options.repeats));
          if (last) deadline.note_cut(std::to_string(n) + "^2", done, options.repeats);
        }
        if (last)
          for (std::size_t v = 0; v < count_of_variants; ++v)
            if (info(options.variants[v]).kind == "halo") verified[v] = live[v]->verify();
        for (auto& variant : live) variant.reset();
        if (last) break;
      }
      for (std::size_t v = 0; v < count_of_variants; ++v) {
        const VariantInfo& vi = info(options.variants[v]);
        Result res;
        res.variant = vi.name;
        res.kind = vi.kind;
        res.n = n;
        res.case_name = vi.kind + "-" + std::to_string(n);
        res.per_repeat = times[v];
        res.usec = 1e6 * median_of(times[v]);
        res.usec_min = 1e6 * *std::min_element(times[v].begin(), times[v].end());
        res.usec_max = 1e6 * *std::max_element(times[v].begin(), times[v].end());
        res.count = counts[v];
        res.verified = verified[v];
        results.push_back(res);
      }
      // Jacobi: every variant from the same start, 10 steps, must give the same checksum.
      double reference = 0;
      bool have_reference = false;
      for (auto& res : results) {
        if (res.kind != "jacobi" || res.n != n) continue;
        SharedState shared;
        auto fresh = info(res.variant).make(world, n, shared);
        fresh->run(10);
        res.checksum = fresh->checksum();
        if (!have_reference) {
          reference = res.checksum;
          have_reference = true;
        }
        res.verified = std::isfinite(res.checksum) && std::abs(res.checksum - reference) <= 1e-12 * std::abs(reference);
      }
    }

    if (rank == 0) {
      std::printf("\n%-12s %-16s %12s %12s %12s %9s  %s\n", "case", "variant", "usec", "min", "max", "count", "verified");
      for (const auto& r : results)
        std::printf("%-12s %-16s %12.2f %12.2f %12.2f %9d  %s\n", r.case_name.c_str(), r.variant.c_str(), r.usec,
                    r.usec_min, r.usec_max, r.count, r.verified ? "yes" : "NO");
      std::printf("\n");
      for (const auto& r : results) {
        std::printf("{\"bench\":\"dist\",\"impl\":\"%s\",\"case\":\"%s\",\"kind\":\"%s\",\"n\":%ld,\"ranks\":%d,"
                    "\"path\":\"%s\",\"usec\":%.4g,\"usec_min\":%.4g,\"usec_max\":%.4g,\"repeats\":%zu,"
                    "\"repeats_asked\":%d,\"count\":%d,\"verified\":%s",
                    r.variant.c_str(), r.case_name.c_str(), r.kind.c_str(), static_cast<long>(r.n), world.size(),
                    path.c_str(), r.usec, r.usec_min, r.usec_max, r.per_repeat.size(), options.repeats, r.count,
                    r.verified ? "true" : "false");
        if (r.kind == "jacobi") std::printf(",\"checksum\":%.17g", r.checksum);
        std::printf(",\"usec_per_repeat\":[");
        for (std::size_t k = 0; k < r.per_repeat.size(); ++k) std::printf("%s%.4g", k ? "," : "", 1e6 * r.per_repeat[k]);
        std::printf("]");
        std::printf(",\"mpi\":\"%s\"}\n", mpi.c_str());
      }
      // The goals, as the median of the ratios within each repeat: the two variants ran
      // back to back there, so the VM's slow and fast phases (±10% over seconds) cancel, which
      // they do not in a ratio of two medians taken over different moments.
      auto find = [&](const std::string& variant, Index n) -> const Result* {
        for (const auto& r : results)
          if (r.variant == variant && r.n == n) return &r;
        return nullptr;
      };
      std::printf("\n");
      for (Index n : options.sizes) {
        auto goal = [&](const char* a, const char* b, double at_most, const char* text) {
          const Result *x = find(a, n), *y = find(b, n);
          if (!x || !y) return;
          std::vector<double> ratios;
          for (std::size_t r = 0; r < x->per_repeat.size() && r < y->per_repeat.size(); ++r)
            ratios.push_back(x->per_repeat[r] / y->per_repeat[r]);
          double ratio = median_of(ratios);
          std::printf("goal %-7s n=%-5ld %s: %s / %s = %.3f (median of %zu paired repeats; ratio of medians %.3f; at "
                      "most %.2f)\n",
                      ratio <= at_most ? "met" : "NOT MET", static_cast<long>(n), text, a, b, ratio, ratios.size(),
                      x->usec / y->usec, at_most);
        };
        goal("halo-gw", "halo-plan", 1.10, "update_halo within 10% of a raw plan");
        goal("halo-gw", "halo-alltoallw", 1.0, "update_halo faster than MPI_Neighbor_alltoallw");
        goal("jacobi-gw", "jacobi-mpi", 1.0, "Jacobi example at least as fast as plain MPI");
      }
      bool all_verified = std::all_of(results.begin(), results.end(), [](const Result& r) { return r.verified; });
      std::printf("%zu results, %s\n", results.size(),
                  all_verified ? "every variant verified" : "verification FAILED for at least one variant");
      deadline.print_cuts(stdout, "gw-dist-bench");
    }
  }
  MPI_Finalize();
  return 0;
}
