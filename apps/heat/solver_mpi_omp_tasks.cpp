// SPDX-License-Identifier: BSD-3-Clause
// mpi-omp-tasks: OpenMP tasks, one per column block and sweep, with the halo messages in tasks of
// their own that a sentinel dependence serialises and that use blocking MPI_Recv / MPI_Send (the
// study's 05, with OmpSs-2 tasks; mpi_column_block_tasks.hpp). Needs MPI_THREAD_SERIALIZED with
// more than one thread: message tasks run on any thread, one at a time.
//
// See docs/heat.md, "The hybrid variants".
#include "hybrid.hpp"
#include "mpi_column_block_tasks.hpp"
#include "solver.hpp"

namespace heat {
namespace {

class MpiOmpTasksSolver final : public Solver {
 public:
  explicit MpiOmpTasksSolver(const SolverContext& context)
      : d_(context.decomposition), comm_(context.comm), hybrid_(make_hybrid_context(context.comm, context.threads)) {}

  void run(Band& band, int timesteps) override {
    MpiColumnBlockTasks tasks(d_, hybrid_, comm_, band, MpiColumnBlockTasks::Messages::serialised);
    tasks.run(timesteps);
    tasks.finish();
  }

 private:
  Decomposition d_;
  MPI_Comm comm_;
  HybridContext hybrid_;
};

std::unique_ptr<Solver> make_mpi_omp_tasks_solver(const SolverContext& context) {
  return std::make_unique<MpiOmpTasksSolver>(context);
}

const VariantRegistration registration{Variant{
    .name = "mpi-omp-tasks",
    .description = "OpenMP column block tasks, message tasks serialised, blocking MPI (05)",
    .position = 10,
    .result_valid = true,
    .single_rank_only = false,
    .create = make_mpi_omp_tasks_solver,
    .threaded = true,
    .thread_level = MPI_THREAD_SERIALIZED,
}};

}  // namespace
}  // namespace heat
