// SPDX-License-Identifier: BSD-3-Clause
// gw-cloverleaf: CloverLeaf (UK-MAC CloverLeaf_ref 1.3) on ghostwire grids, with its halo exchange
// variants in one binary (--exchange). See docs/cloverleaf.md.
//
// Exit status: 0 success; 1 the test problem's check failed, or the timestep fell below the minimum;
// 2 a usage or deck error (printed once, by rank 0, and every rank exits: nothing hangs); an MPI
// abort for anything unexpected (a rank may be alone with it, so it cannot wait for the others).
#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <memory>
#include <new>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <ghostwire/world.hpp>

#include "chunk.hpp"
#include "deck.hpp"
#include "decompose.hpp"
#include "exchange.hpp"
#include "halo.hpp"
#include "hydro.hpp"
#include "options.hpp"
#include "output.hpp"
#include "profile.hpp"
#include "report.hpp"
#include "usage_error.hpp"

namespace cloverleaf {
namespace {

// Rank 0 reads the deck; every rank gets its text (and parses it, so every rank finds the same errors).
std::string read_deck(const std::string& path, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string text, problem;
  long long size = 0;
  if (rank == 0) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      problem = std::strerror(errno);
      size = -1;
    } else {
      std::ostringstream content;
      content << file.rdbuf();
      text = content.str();
      size = static_cast<long long>(text.size());
    }
  }
  MPI_Bcast(&size, 1, MPI_LONG_LONG, 0, comm);
  if (size < 0) {
    throw UsageError("cannot read the deck '" + path + "'" + (problem.empty() ? "" : ": " + problem) +
                     "; give the deck's path as the first argument (default ./clover.in; --help for the options)");
  }
  text.resize(static_cast<std::size_t>(size));
  MPI_Bcast(text.data(), static_cast<int>(size), MPI_CHAR, 0, comm);
  return text;
}

void append_line(const std::string& file, const std::string& line) {
  if (file.empty()) return;
  if (std::FILE* f = std::fopen(file.c_str(), "a")) {
    std::fprintf(f, "%s\n", line.c_str());
    std::fclose(f);
  } else {
    std::fprintf(stderr, "gw-cloverleaf: cannot append to --json '%s': %s\n", file.c_str(), std::strerror(errno));
  }
}

// One run of the job: a fresh chunk generated from the deck, the run's exchange, the timestep loop,
// the closing lines, the profile and the JSON line; exactly what a job of this one run does. The
// fields are freed when it returns, so the next run starts from newly allocated, newly generated
// fields. Returns 1 when the test problem's check failed, else 0.
int run_once(const Deck& deck, const Options& options, const Decomposition& decomposition, ghostwire::World& world,
             MPI_Comm comm, int round) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  Output out(rank, options.out, options.quiet);
  int opened = out.opened() ? 1 : 0;
  MPI_Bcast(&opened, 1, MPI_INT, 0, comm);
  if (!opened) throw UsageError("--out '" + options.out + "': cannot open the file for writing");
  RunInfo info{deck, options, decomposition, world.node_count()};
  info.round = round;
  write_header(out, info);

  Chunk chunk(world, decomposition);
  Profile profile;
  std::unique_ptr<Exchange> exchange = make_exchange(options.exchange, ExchangeSetup{world, comm, chunk});
  HaloUpdate halo(chunk, *exchange, options.sync, profile);
  Simulation simulation(deck, options, chunk, halo, comm, out, profile);
  simulation.start();
  const RunResult result = simulation.run();

  write_closing(out, result);
  int profile_rank = 0;
  const Profile slowest = slowest_profile(profile, comm, profile_rank);
  if (deck.profiler_on) out.both(profile_table(slowest, result.wall));
  const std::string json = json_line(info, result, slowest, profile_rank, halo.calls());
  if (rank == 0) {
    std::printf("%s\n", json.c_str());
    append_line(options.json, json);
  }
  out.flush();
  return result.verdict && !result.verdict->passed ? 1 : 0;
}

int run(int argc, char** argv, MPI_Comm comm) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const char* program = "gw-cloverleaf";
  try {
    const Options options = parse_options(std::span<char* const>(argv, static_cast<std::size_t>(argc)));
    if (options.help) {
      if (rank == 0) std::fputs(usage_text().c_str(), stdout);
      return 0;
    }
    Deck deck = parse_deck(read_deck(options.deck, comm), options.deck, ranks);
    if (options.profile) deck.profiler_on = true;
    const Decomposition decomposition = decompose(deck, rank, ranks);

    ghostwire::World world(comm);
    if (!side_by_side(options)) return run_once(deck, options, decomposition, world, comm, 0);

    // A side-by-side job: every (exchange, sync) once per round, in a rotated order, each run on
    // its own fields and with its own output file.
    const std::vector<RunPlan> plans = run_plans(options);
    int status = 0;
    for (std::size_t i = 0; i < plans.size(); ++i) {
      Options run_options = options;
      run_options.exchange = plans[i].exchange;
      run_options.sync = plans[i].sync;
      run_options.out = run_output_file(options.out, plans[i]);
      if (rank == 0) {
        std::printf("gw-cloverleaf: run %zu of %zu: round %d of %d, exchange %s, sync %s, output file %s\n", i + 1,
                    plans.size(), plans[i].round, options.rounds, plans[i].exchange.c_str(), sync_name(plans[i].sync),
                    run_options.out.c_str());
      }
      status = std::max(status, run_once(deck, run_options, decomposition, world, comm, plans[i].round));
    }
    return status;
  } catch (const UsageError& error) {
    return ghostwire_programs::report_usage_error(error, std::string(program) + ": ", rank);
  } catch (const SimulationError& error) {
    if (rank == 0) std::fprintf(stderr, "%s: %s\n", program, error.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: rank %d: out of memory for the fields (mesh too large for the ranks?)\n", program, rank);
    MPI_Abort(comm, 3);
    return 3;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: rank %d: %s\n", program, rank, error.what());
    MPI_Abort(comm, 3);
    return 3;
  }
}

}  // namespace
}  // namespace cloverleaf

int main(int argc, char** argv) {
  // FUNNELED: what ghostwire's World asks for.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const int status = cloverleaf::run(argc, argv, comm);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return status;
}
