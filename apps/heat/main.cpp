// SPDX-License-Identifier: BSD-3-Clause
// gw-heat: the INTERTWinE Heat benchmark. Reads the options, and for every chosen variant and
// tile size (and repeat) sets up the band of this rank, times the sweeps between two barriers and
// prints the result (docs/heat.md).
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <span>
#include <string>

#include "band.hpp"
#include "checksums.hpp"
#include "decomposition.hpp"
#include "field_gather.hpp"
#include "ghostwire/dist.hpp"
#include "ghostwire/topo.hpp"
#include "heat_sources.hpp"
#include "hybrid.hpp"
#include "image_output.hpp"
#include "initial_field.hpp"
#include "options.hpp"
#include "report.hpp"
#include "solver.hpp"
#include "usage_error.hpp"

namespace heat {
namespace {

std::string program_name(const char* argv0) {
  const std::string path = argv0 != nullptr ? argv0 : "gw-heat";
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Rank 0 opens the image file and tells the others whether that worked, so that a bad path is a
// UsageError on every rank (and before the run rather than after it).
std::unique_ptr<PpmImage> open_image(const std::string& path, int rank, MPI_Comm comm) {
  std::unique_ptr<PpmImage> image;
  std::string problem;
  if (rank == 0) {
    try {
      image = std::make_unique<PpmImage>(path);
    } catch (const UsageError& error) {
      problem = error.what();
    }
  }
  int length = static_cast<int>(problem.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  problem.resize(static_cast<std::size_t>(length));
  MPI_Bcast(problem.data(), length, MPI_CHAR, 0, comm);
  if (length > 0) throw UsageError(problem);
  return image;
}

// The variants --variant names, in listing order (solver.hpp); "all" is every variant for this
// rank count.
std::vector<const Variant*> chosen_variants(const std::vector<std::string>& names, int ranks) {
  std::vector<const Variant*> chosen;
  auto add = [&](const Variant& variant) {
    if (std::find(chosen.begin(), chosen.end(), &variant) == chosen.end()) chosen.push_back(&variant);
  };
  for (const std::string& name : names) {
    if (name == "all") {
      for (const Variant& variant : variants()) {
        if (!variant.single_rank_only || ranks == 1) add(variant);
      }
      continue;
    }
    const Variant& variant = find_variant(name);
    if (variant.single_rank_only && ranks != 1) {
      throw UsageError("variant '" + std::string(variant.name) + "' runs on 1 rank, got " +
                       std::to_string(ranks) + " (the other variants run on any number)");
    }
    add(variant);
  }
  return chosen;
}

struct Configuration {
  const Variant* variant;
  Decomposition d;
  int threads = 1;  // --threads for a threaded variant, else 1
  int timesteps = 0;
  std::vector<double> times;  // of the measured runs
};

// A threaded variant whose threads call MPI needs the thread support it names (with one thread,
// MPI_THREAD_FUNNELED: the only thread is the main one); checked for all before anything runs.
void check_thread_support(const Variant& variant, int threads, int provided) {
  if (!variant.threaded) return;
  const int needed = threads > 1 ? variant.thread_level : MPI_THREAD_FUNNELED;
  if (provided >= needed) return;
  throw UsageError("variant '" + variant.name + "' with " + std::to_string(threads) + " thread(s) needs " +
                   thread_level_name(needed) + ", but MPI provides " + thread_level_name(provided) +
                   " (see --thread-level)");
}

// --threads N > 1 given, but every chosen variant runs one thread: surely not what was meant.
void check_threads_used(const std::vector<const Variant*>& chosen, const Options& options) {
  if (!options.threads_given || options.threads == 1) return;
  for (const Variant* variant : chosen) {
    if (variant->threaded) return;
  }
  std::string threaded;
  for (const Variant& variant : variants()) {
    if (variant.threaded) threaded += (threaded.empty() ? "" : ", ") + variant.name;
  }
  throw UsageError("--threads " + std::to_string(options.threads) +
                   ": none of the chosen variants runs threads (the threaded ones: " + threaded + ")");
}

struct FieldOutputs {
  bool checksum = false;
  bool image = false;
  PpmImage* image_file = nullptr;  // rank 0 only
};

// One run on fresh memory: a new solver (with its segments and plans), the initial field and
// `timesteps` sweeps, timed on rank 0 between two barriers. `report(time)` is called on every rank
// with rank 0's time; then the final field is gathered for the outputs asked for.
double timed_run(const Configuration& c, int timesteps, const std::vector<HeatSource>& sources, MPI_Comm comm,
                 const FieldOutputs& outputs = {}, const std::function<void(double)>& report = {}) {
  const Decomposition& d = c.d;
  const std::unique_ptr<Solver> solver = c.variant->create(SolverContext{d, comm, c.threads});
  Band band(solver->allocate_band(Band::element_count(d.band_rows, d.cols)), d.band_rows, d.cols);
  initialise_band(band, d, sources);

  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  solver->run(band, timesteps);
  MPI_Barrier(comm);
  double time = MPI_Wtime() - start;
  MPI_Bcast(&time, 1, MPI_DOUBLE, 0, comm);
  if (report) report(time);

  // Collective: decided by the options, which every rank has (the image file only rank 0).
  if (outputs.checksum || outputs.image) {
    const std::vector<double> field = gather_field(band, d, comm);
    if (d.rank == 0) {
      if (outputs.checksum) print_checksums(stdout, field_checksums(field, d.rows, d.cols));
      if (outputs.image_file != nullptr) outputs.image_file->write(field, d.rows + 2, d.cols + 2);
    }
  }
  return time;
}

// The timesteps for a run of about `seconds`: runs with 1, then more timesteps until one takes a
// measurable time (these runs also warm up the caches and the MPI connections), then scales.
int calibrated_timesteps(const Configuration& c, double seconds, const std::vector<HeatSource>& sources,
                         MPI_Comm comm) {
  const double measurable = std::min(0.1, seconds / 4);
  long long timesteps = 1;
  for (;;) {
    const double time = timed_run(c, static_cast<int>(timesteps), sources, comm);
    if (time >= measurable || timesteps >= INT_MAX / 64) {
      const double scaled = std::round(static_cast<double>(timesteps) * seconds / std::max(time, 1e-9));
      return static_cast<int>(std::clamp(scaled, 1.0, static_cast<double>(INT_MAX)));
    }
    const double factor = time > 0 ? std::clamp(std::ceil(1.5 * measurable / time), 2.0, 64.0) : 64.0;
    timesteps = static_cast<long long>(static_cast<double>(timesteps) * factor);
  }
}

RunReport report_of(const Configuration& c, int ranks, const std::vector<HeatSource>& sources, const Options& options) {
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  return RunReport{.variant = c.variant->name,
                   .ranks = ranks,
                   .threads = c.threads,
                   .mpi_thread_level = thread_level_name(provided),
                   .rows = c.d.rows,
                   .cols = c.d.cols,
                   .bx = c.d.bx,
                   .by = c.d.by,
                   .timesteps = c.timesteps,
                   .heat_sources = static_cast<int>(sources.size()),
                   .sources_from = options.conf_file.empty() ? "default" : options.conf_file,
                   .result_valid = c.variant->result_valid,
                   .time_s = 0.0};
}

// With --placement other than rank_order: a communicator whose rank b is the process that
// computes band b (ghostwire's placement of the chain of bands), so the whole program, its gathers
// and output included, runs in band order whoever computes the bands. Null for rank order.
struct PlacedComm {
  MPI_Comm comm = MPI_COMM_NULL;
  ~PlacedComm() {
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};

void place_bands(const Options& options, MPI_Comm comm, PlacedComm& placed) {
  if (options.placement == "rank_order") return;
  ghostwire::World world(comm);
  const auto team = ghostwire::TeamSpec<1>::placed(world, {world.size()},
                                                   ghostwire::placement_from_name(options.placement), {false},
                                                   {std::max(1, options.rows / world.size())});
  const ghostwire::TeamSpec<1> positions({world.size()});
  ghostwire::topo::Assignment rank_of;
  for (int band = 0; band < world.size(); ++band) rank_of.push_back(team.rank(positions.coords(band)));
  placed.comm = ghostwire::topo::reordered_comm(comm, rank_of);
}

}  // namespace

// The MPI thread support to ask for, from the command line, read before MPI starts (a mistake in
// it is reported later, by run(), on every rank). FUNNELED, not SINGLE, for the variants without
// threads: the ghostwire variants share the process with a runtime that asks for it, and every
// variant of a run must run under the same MPI settings for a fair comparison. MULTIPLE as soon as
// a threaded variant is chosen, whichever it is and however many threads it runs, for the same
// reason: the hybrid variants are compared with each other at one level. Open MPI's paths take
// locks at MULTIPLE, so the variants without threads are measured on their own (docs/heat.md).
int requested_thread_level(std::span<char* const> arguments) {
  Options options;
  try {
    options = parse_options(arguments);
  } catch (const UsageError&) {
    return MPI_THREAD_FUNNELED;
  }
  switch (options.thread_level) {
    case Options::ThreadLevel::single: return MPI_THREAD_SINGLE;
    case Options::ThreadLevel::funneled: return MPI_THREAD_FUNNELED;
    case Options::ThreadLevel::serialized: return MPI_THREAD_SERIALIZED;
    case Options::ThreadLevel::multiple: return MPI_THREAD_MULTIPLE;
    case Options::ThreadLevel::automatic: break;
  }
  for (const std::string& name : options.variants) {
    for (const Variant& variant : variants()) {
      if (variant.threaded && (name == "all" || name == variant.name)) return MPI_THREAD_MULTIPLE;
    }
  }
  return MPI_THREAD_FUNNELED;
}

namespace {

int run(std::span<char* const> arguments, MPI_Comm job) {
  const Options options = parse_options(arguments);
  PlacedComm placed;
  place_bands(options, job, placed);
  MPI_Comm comm = placed.comm != MPI_COMM_NULL ? placed.comm : job;
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);

  if (options.help) {
    if (rank == 0) std::fputs(usage_text(program_name(arguments[0])).c_str(), stdout);
    return 0;
  }
  // Every configuration is checked before anything runs.
  const std::vector<const Variant*> chosen = chosen_variants(options.variants, ranks);
  check_threads_used(chosen, options);
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  std::vector<Configuration> configurations;
  for (const Variant* variant : chosen) {
    const int threads = variant->threaded ? options.threads : 1;
    check_thread_support(*variant, threads, provided);
    for (const TileSize& tile : options.tiles) {
      configurations.push_back(
          {variant, decompose(options.rows, options.cols, tile.bx, tile.by, ranks, rank), threads, 0, {}});
    }
  }
  const bool single_run = configurations.size() == 1 && options.repeat == 1;
  if ((options.checksum || !options.image_file.empty()) && !single_run) {
    throw UsageError("--checksum and -o need a single run: one variant, one tile size and --repeat 1");
  }
  const std::vector<HeatSource> sources = load_heat_sources(options.conf_file, comm);
  std::unique_ptr<PpmImage> image;
  if (!options.image_file.empty()) image = open_image(options.image_file, rank, comm);

  for (Configuration& c : configurations) {
    c.timesteps = options.seconds > 0 ? calibrated_timesteps(c, options.seconds, sources, comm) : options.timesteps;
  }
  // Repeats outermost, then tile sizes, then the variants of a tile back to back in an order that
  // rotates with the run and the tile: the runs compared with each other (one tile size, one run
  // number) happen moments apart, so the machine's slow and fast spells, seconds long on a VM,
  // fall on all of them alike, and no variant always comes first.
  const std::size_t tiles = options.tiles.size(), variant_count = configurations.size() / tiles;
  for (int run = 1; run <= options.repeat; ++run) {
    for (std::size_t k = 0; k < configurations.size(); ++k) {
      const std::size_t tile = k / variant_count;
      const std::size_t variant = (k % variant_count + static_cast<std::size_t>(run) + tile) % variant_count;
      Configuration& c = configurations[variant * tiles + tile];
      RunReport report = report_of(c, ranks, sources, options);
      if (rank == 0 && run == 1) {
        print_header(stdout, report);
        std::fflush(stdout);
      }
      report.run = run;
      report.runs = options.repeat;
      const FieldOutputs outputs{single_run && options.checksum, single_run && !options.image_file.empty(),
                                 image.get()};
      timed_run(c, c.timesteps, sources, comm, outputs, [&](double time) {
        report.time_s = time;
        c.times.push_back(time);
        if (rank == 0) {
          print_result_line(stdout, report);
          print_json_line(stdout, report);
          std::fflush(stdout);
        }
      });
    }
  }
  if (!single_run && rank == 0) {
    std::vector<RunReport> medians;
    for (Configuration& c : configurations) {
      RunReport median = report_of(c, ranks, sources, options);
      std::vector<double> times = c.times;
      std::sort(times.begin(), times.end());
      const std::size_t n = times.size();
      median.time_s = n % 2 == 1 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
      median.run = 0;
      median.runs = options.repeat;
      if (options.repeat > 1) print_json_line(stdout, median);
      medians.push_back(median);
    }
    print_summary_table(stdout, medians);
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace
}  // namespace heat

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv,
                  heat::requested_thread_level(std::span<char* const>(argv, static_cast<std::size_t>(argc))), &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  int status = 0;
  try {
    status = heat::run(std::span<char* const>(argv, static_cast<std::size_t>(argc)), MPI_COMM_WORLD);
  } catch (const heat::UsageError& error) {
    // Every rank threw the same error at the same point, so all can finalise normally.
    status = ghostwire_programs::report_usage_error(error, "gw-heat: error: ", rank);
  } catch (const std::exception& error) {
    // Anything else may have happened on one rank only while the others wait for it.
    std::fprintf(stderr, "gw-heat: rank %d: %s\n", rank, error.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  std::fflush(stdout);
  MPI_Finalize();
  return status;
}
