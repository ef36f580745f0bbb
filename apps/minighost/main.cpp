// SPDX-License-Identifier: BSD-3-Clause
// gw-minighost: miniGhost (Mantevo 1.0.1) with its variants in one binary (--variant), so every
// comparison is a side-by-side run of one program. See docs/minighost.md.
//
// Exit status: 0 success, 1 conservation failed, 2 usage error (printed once, by rank 0), and an
// MPI abort for anything unexpected (a rank may be alone with it, so it cannot wait for the others).
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <memory>
#include <new>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "decomposition.hpp"
#include "ghostwire/dist.hpp"
#include "options.hpp"
#include "report.hpp"
#include "report_output.hpp"
#include "simulation.hpp"
#include "usage_error.hpp"
#include "variant.hpp"

namespace minighost {
namespace {

const char* const program_name = "gw-minighost";

std::string help_text(std::string_view program) {
  std::string text = usage_text(program) + "\nvariants in this build:\n";
  for (const RegisteredVariant& v : VariantRegistry::instance().entries()) {
    text += "  " + v.name + std::string(12 - std::min<std::size_t>(v.name.size(), 11), ' ') + v.description + "\n";
  }
  return text;
}

std::string header(const Options& o, const Decomposition& d, const std::string& variant) {
  std::ostringstream text;
  const auto& b = d.block();
  const auto& g = d.global_size();
  const auto& p = d.process_grid();
  text << "gw-minighost: stencil " << static_cast<int>(o.stencil) << " (" << stencil_name(o.stencil)
       << "), comm_method " << static_cast<int>(o.comm_method) << " (" << comm_method_name(o.comm_method)
       << "), variant " << variant << ", " << d.ranks() << " ranks (" << p[0] << " x " << p[1] << " x " << p[2]
       << "), " << b[0] << " x " << b[1] << " x " << b[2] << " per rank, " << g[0] << " x " << g[1] << " x " << g[2]
       << " global, " << o.num_vars << (o.num_vars == 1 ? " variable, " : " variables, ") << o.num_spikes
       << (o.num_spikes == 1 ? " spike x " : " spikes x ") << o.num_tsteps << " steps";
  if (!d.enlargement_note().empty()) text << "\nnote: " << d.enlargement_note();
  if (o.checkpoint_interval > 0 || !o.checkpoint_file.empty() || !o.restart_file.empty()) {
    text << "\nnote: the checkpoint and restart options are ignored, as in the reference's default build";
  }
  return text.str();
}

// --output FILE for one of several variants: FILE with ".VARIANT" before its extension.
std::string output_file_for(const std::string& file, const std::string& variant, bool several) {
  if (file.empty() || !several) return file;
  const std::size_t slash = file.find_last_of('/');
  const std::size_t dot = file.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return file + "." + variant;
  return file.substr(0, dot) + "." + variant + file.substr(dot);
}

// One variant's run: its storage, its simulation and where its report goes.
struct Contender {
  std::string name;
  std::unique_ptr<ReportOutput> output;
  std::unique_ptr<Variant> variant;
  std::unique_ptr<Simulation> simulation;
};

// The median over rounds of contender k's round time over contender 0's (rank 0 prints it).
double median_round_ratio(const RunResult& of, const RunResult& versus) {
  std::vector<double> ratios;
  for (std::size_t r = 0; r < of.round_seconds.size() && r < versus.round_seconds.size(); ++r)
    if (versus.round_seconds[r] > 0) ratios.push_back(of.round_seconds[r] / versus.round_seconds[r]);
  if (ratios.empty()) return 0.0;
  std::sort(ratios.begin(), ratios.end());
  const std::size_t n = ratios.size();
  return n % 2 ? ratios[n / 2] : 0.5 * (ratios[n / 2 - 1] + ratios[n / 2]);
}

// The rank computing each position of the process grid (position = x + npx * (y + npy * z), i.e.
// row-major over (z, y, x)), from ghostwire's placement on the machine; empty for rank order.
std::vector<int> placement(const Options& options, MPI_Comm comm, const std::array<int, 3>& block) {
  if (options.placement == "rank_order") return {};
  ghostwire::World world(comm);
  const std::array<int, 3> extents{options.npz, options.npy, options.npx};
  const auto team = ghostwire::TeamSpec<3>::placed(world, extents, ghostwire::placement_from_name(options.placement),
                                                   {false, false, false}, {block[z], block[y], block[x]});
  const ghostwire::TeamSpec<3> positions(extents);
  std::vector<int> rank_of;
  for (int p = 0; p < team.size(); ++p) rank_of.push_back(team.rank(positions.coords(p)));
  return rank_of;
}

// Every variant's run of the job, each with its own storage and its own report output.
std::vector<Contender> make_contenders(const Options& options, const Decomposition& decomposition, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const VariantSetup setup{comm, &decomposition, options.num_vars, halo_shape(options.stencil), options.comm_method};
  const bool several = options.variants.size() > 1;
  std::vector<Contender> contenders;
  for (const std::string& name : options.variants) {
    Contender c;
    c.name = name;
    const std::string file = output_file_for(options.output_file, name, several);
    c.output = std::make_unique<ReportOutput>(rank, file, several);
    int opened = c.output->opened() ? 1 : 0;
    MPI_Bcast(&opened, 1, MPI_INT, 0, comm);
    if (!opened) throw UsageError("--output '" + file + "': cannot open the file for writing");
    c.variant = make_variant(name, setup);
    c.output->line(header(options, decomposition, name));
    c.simulation = std::make_unique<Simulation>(options, decomposition, *c.variant, comm, *c.output);
    contenders.push_back(std::move(c));
  }
  return contenders;
}

// Side by side: every variant does its share of the steps in every round, in rotated order, timed
// between barriers; the machine's slow and fast spells (seconds long on a VM) then fall on all
// variants alike, and the per-round ratios compare runs that were moments apart.
std::vector<RunResult> run_side_by_side(std::vector<Contender>& contenders, int rounds, MPI_Comm comm) {
  const std::size_t n = contenders.size();
  for (Contender& c : contenders) c.simulation->begin();
  const long long total = contenders.front().simulation->total_steps();
  std::vector<std::vector<double>> seconds(n);
  for (int r = 0; r < rounds; ++r) {
    const int steps = static_cast<int>((r + 1) * total / rounds - r * total / rounds);
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t i = (static_cast<std::size_t>(r) + k) % n;
      MPI_Barrier(comm);
      const double start = MPI_Wtime();
      contenders[i].simulation->advance(steps);
      MPI_Barrier(comm);
      seconds[i].push_back(MPI_Wtime() - start);
    }
  }
  std::vector<RunResult> results;
  for (std::size_t i = 0; i < n; ++i) {
    MPI_Allreduce(MPI_IN_PLACE, seconds[i].data(), rounds, MPI_DOUBLE, MPI_MAX, comm);
    results.push_back(contenders[i].simulation->end());
    results.back().round_seconds = seconds[i];
  }
  return results;
}

// Each variant's summary (and its conservation failure, if any), then for a side-by-side job the
// median round ratios. Returns 1 if a variant's enforced conservation failed, else 0.
int report_results(const Options& options, const Decomposition& decomposition, std::vector<Contender>& contenders,
                   const std::vector<RunResult>& results, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int status = 0;
  for (std::size_t i = 0; i < contenders.size(); ++i) {
    Contender& c = contenders[i];
    const RunResult& result = results[i];
    if (result.conservation_enforced && !result.conservation_held) {
      c.output->error(std::string(program_name) + ": " + result.failure);
      status = 1;
    }
    report_summary(options, decomposition, c.name, result, comm, *c.output);
    c.output->release();
  }
  if (contenders.size() > 1 && rank == 0) {
    std::printf("\nside by side, %d rounds: median over the rounds of each variant's time over %s's:", options.rounds,
                contenders.front().name.c_str());
    for (std::size_t i = 1; i < contenders.size(); ++i)
      std::printf(" %s %.4f", contenders[i].name.c_str(), median_round_ratio(results[i], results.front()));
    std::printf("\n");
    std::fflush(stdout);
  }
  return status;
}

int run(int argc, char** argv, MPI_Comm comm) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  try {
    const Options options = parse_options(std::span<char* const>(argv, static_cast<std::size_t>(argc)), ranks);
    if (options.help) {
      if (rank == 0) std::fputs(help_text(program_name).c_str(), stdout);
      return 0;
    }
    const Decomposition decomposition(options, rank, ranks,
                                      placement(options, comm, Decomposition(options, rank, ranks).block()));
    std::vector<Contender> contenders = make_contenders(options, decomposition, comm);
    std::vector<RunResult> results;
    if (contenders.size() == 1) {
      results.push_back(contenders.front().simulation->run());
    } else {
      results = run_side_by_side(contenders, options.rounds, comm);
    }
    return report_results(options, decomposition, contenders, results, comm);
  } catch (const UsageError& error) {
    return ghostwire_programs::report_usage_error(error, std::string(program_name) + ": ", rank);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: rank %d: out of memory for the variables (block and --num_vars too large?)\n",
                 program_name, rank);
    MPI_Abort(comm, 3);
    return 3;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: rank %d: %s\n", program_name, rank, error.what());
    MPI_Abort(comm, 3);
    return 3;
  }
}

}  // namespace
}  // namespace minighost

int main(int argc, char** argv) {
  // FUNNELED: what ghostwire's World asks for, so the gw variant can share this MPI.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const int status = minighost::run(argc, argv, comm);
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return status;
}
