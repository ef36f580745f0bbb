// The table of variants. Adding one: write solver_<name>.cpp with a factory, declare it here, add
// a row to the table and the file to CMakeLists.txt.
#include <string>

#include "solver.hpp"
#include "usage_error.hpp"

namespace heat {

std::unique_ptr<Solver> make_seq_solver(const SolverContext& context);
std::unique_ptr<Solver> make_mpi_blocking_solver(const SolverContext& context);
std::unique_ptr<Solver> make_mpi_nbuffer_solver(const SolverContext& context);
std::unique_ptr<Solver> make_mpi_nbuffer_transposed_solver(const SolverContext& context);
std::unique_ptr<Solver> make_gw_wavefront_solver(const SolverContext& context);
std::unique_ptr<Solver> make_gw_pipelined_solver(const SolverContext& context);
std::unique_ptr<Solver> make_commfree_solver(const SolverContext& context);
std::unique_ptr<Solver> make_commfree_rows_solver(const SolverContext& context);

namespace {

constexpr Variant variant_table[] = {
    {"seq", "1 rank, row-major tiles: the reference result", true, true, make_seq_solver},
    {"mpi-blocking", "MPI_Send/MPI_Recv of the halo rows around each sweep", true, false,
     make_mpi_blocking_solver},
    {"mpi-nbuffer", "MPI_Isend/MPI_Irecv per column block, as soon as ready", true, false,
     make_mpi_nbuffer_solver},
    {"mpi-nbuffer-transposed", "mpi-nbuffer, column-major tiles (faster wavefront)", true, false,
     make_mpi_nbuffer_transposed_solver},
    {"gw-wavefront", "ghostwire, a channel per column block, sweep by sweep (010)", true, false,
     make_gw_wavefront_solver},
    {"gw-pipelined", "ghostwire, a channel per column block, pipelined across sweeps (011)", true,
     false, make_gw_pipelined_solver},
    {"commfree", "gw-pipelined without communication: compute-only bound (invalid result)", false,
     false, make_commfree_solver},
    {"commfree-rows", "commfree reading the neighbours' rows in place, unsynchronised: + data movement (invalid)",
     false, false, make_commfree_rows_solver},
};

}  // namespace

std::span<const Variant> variants() { return variant_table; }

const Variant& find_variant(std::string_view name) {
  for (const Variant& variant : variant_table) {
    if (variant.name == name) return variant;
  }
  std::string known;
  for (const Variant& variant : variant_table) {
    known += (known.empty() ? "" : ", ") + std::string(variant.name);
  }
  throw UsageError("unknown variant '" + std::string(name) + "'; expected one of: " + known);
}

}  // namespace heat
