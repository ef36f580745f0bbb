// gw-minighost: miniGhost (Mantevo 1.0.1) with its variants in one binary (--variant), so every
// comparison is a side-by-side run of one program. See docs/minighost.md.
//
// Exit status: 0 success, 1 conservation failed, 2 usage error (printed once, by rank 0), and an
// MPI abort for anything unexpected (a rank may be alone with it, so it cannot wait for the others).
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>
#include <span>
#include <sstream>
#include <string>

#include "decomposition.hpp"
#include "options.hpp"
#include "report.hpp"
#include "report_output.hpp"
#include "simulation.hpp"
#include "usage_error.hpp"
#include "variant.hpp"

namespace minighost {
namespace {

std::string help_text(std::string_view program) {
  std::string text = usage_text(program) + "\nvariants in this build:\n";
  for (const VariantInfo& v : available_variants()) {
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

int run(int argc, char** argv, MPI_Comm comm) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const std::string program = "gw-minighost";
  try {
    const Options options = parse_options(std::span<char* const>(argv, static_cast<std::size_t>(argc)), ranks);
    if (options.help) {
      if (rank == 0) std::fputs(help_text(program).c_str(), stdout);
      return 0;
    }
    ReportOutput output(rank, options.output_file);
    int opened = output.opened() ? 1 : 0;
    MPI_Bcast(&opened, 1, MPI_INT, 0, comm);
    if (!opened) throw UsageError("--output '" + options.output_file + "': cannot open the file for writing");

    const Decomposition decomposition(options, rank, ranks);
    const VariantSetup setup{comm, &decomposition, options.num_vars, halo_shape(options.stencil),
                             options.comm_method};
    auto variant = make_variant(options.variant, setup);
    output.line(header(options, decomposition, options.variant));

    Simulation simulation(options, decomposition, *variant, comm, output);
    const RunResult result = simulation.run();
    if (result.conservation_enforced && !result.conservation_held) output.error(program + ": " + result.failure);
    report_summary(options, decomposition, result, comm, output);
    return result.conservation_enforced && !result.conservation_held ? 1 : 0;
  } catch (const UsageError& error) {
    if (rank == 0) std::fprintf(stderr, "%s: %s\n", program.c_str(), error.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: rank %d: out of memory for the variables (block and --num_vars too large?)\n",
                 program.c_str(), rank);
    MPI_Abort(comm, 3);
    return 3;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: rank %d: %s\n", program.c_str(), rank, error.what());
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
