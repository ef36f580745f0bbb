// gw-heat: the INTERTWinE Heat benchmark. Reads the options, sets up the band of this rank, times
// the chosen variant's sweeps between two barriers and prints the result (docs/heat.md).
#include <mpi.h>

#include <cstdio>
#include <exception>
#include <memory>
#include <span>
#include <string>

#include "band.hpp"
#include "checksums.hpp"
#include "decomposition.hpp"
#include "field_gather.hpp"
#include "heat_sources.hpp"
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

int run(std::span<char* const> arguments, MPI_Comm comm) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);

  const Options options = parse_options(arguments);
  if (options.help) {
    if (rank == 0) std::fputs(usage_text(program_name(arguments[0])).c_str(), stdout);
    return 0;
  }
  const Variant& variant = find_variant(options.variant);
  if (variant.single_rank_only && ranks != 1) {
    throw UsageError("variant '" + std::string(variant.name) + "' runs on 1 rank, got " +
                     std::to_string(ranks) + " (the mpi-* variants run on any number)");
  }
  const Decomposition d = decompose(options.rows, options.cols, options.bx, options.by, ranks, rank);
  const std::vector<HeatSource> sources = load_heat_sources(options.conf_file, comm);
  std::unique_ptr<PpmImage> image;
  if (!options.image_file.empty()) image = open_image(options.image_file, rank, comm);

  const std::unique_ptr<Solver> solver = variant.create(SolverContext{d, comm});
  Band band(solver->allocate_band(Band::element_count(d.band_rows, d.cols)), d.band_rows, d.cols);
  initialise_band(band, d, sources);

  RunReport report{.variant = variant.name,
                   .ranks = ranks,
                   .rows = d.rows,
                   .cols = d.cols,
                   .bx = d.bx,
                   .by = d.by,
                   .timesteps = options.timesteps,
                   .heat_sources = static_cast<int>(sources.size()),
                   .sources_from = options.conf_file.empty() ? "default" : options.conf_file,
                   .result_valid = variant.result_valid,
                   .time_s = 0.0};
  if (rank == 0) {
    print_header(stdout, report);
    std::fflush(stdout);
  }

  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  solver->run(band, options.timesteps);
  MPI_Barrier(comm);
  report.time_s = MPI_Wtime() - start;

  if (rank == 0) {
    print_result_line(stdout, report);
    print_json_line(stdout, report);
    std::fflush(stdout);
  }
  if (options.checksum || image) {
    const std::vector<double> field = gather_field(band, d, comm);
    if (rank == 0) {
      if (options.checksum) print_checksums(stdout, field_checksums(field, d.rows, d.cols));
      if (image) image->write(field, d.rows + 2, d.cols + 2);
    }
  }
  return 0;
}

}  // namespace
}  // namespace heat

int main(int argc, char** argv) {
  // FUNNELED, not SINGLE: the ghostwire variants share the process with a runtime that asks for it,
  // and every variant must run under the same MPI settings for a fair comparison.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  int status = 0;
  try {
    status = heat::run(std::span<char* const>(argv, static_cast<std::size_t>(argc)), MPI_COMM_WORLD);
  } catch (const heat::UsageError& error) {
    // Every rank threw the same error at the same point, so all can finalise normally.
    if (rank == 0) std::fprintf(stderr, "gw-heat: error: %s\n", error.what());
    status = 2;
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
