// SPDX-License-Identifier: BSD-3-Clause
// mpi-omp-tasks-mt: mpi-omp-tasks with the message tasks in parallel (no sentinel), each polling
// its MPI_Irecv with MPI_Test and taskyield where the study's 06 used the TAMPI interoperability
// library; a send task posts MPI_Isend and the block's next task completes it
// (mpi_column_block_tasks.hpp). Needs MPI_THREAD_MULTIPLE with more than one thread.
//
// See docs/heat.md, "The hybrid variants".
#include "hybrid.hpp"
#include "mpi_column_block_tasks.hpp"
#include "solver.hpp"

namespace heat {
namespace {

class MpiOmpTasksMtSolver final : public Solver {
 public:
  explicit MpiOmpTasksMtSolver(const SolverContext& context)
      : d_(context.decomposition), comm_(context.comm), hybrid_(make_hybrid_context(context.comm, context.threads)) {
    require_tag_per_column_block(d_, comm_, "mpi-omp-tasks-mt");
  }

  void run(Band& band, int timesteps) override {
    MpiColumnBlockTasks tasks(d_, hybrid_, comm_, band, MpiColumnBlockTasks::Messages::parallel);
    tasks.run(timesteps);
    tasks.finish();
  }

 private:
  Decomposition d_;
  MPI_Comm comm_;
  HybridContext hybrid_;
};

std::unique_ptr<Solver> make_mpi_omp_tasks_mt_solver(const SolverContext& context) {
  return std::make_unique<MpiOmpTasksMtSolver>(context);
}

const VariantRegistration registration{Variant{
    .name = "mpi-omp-tasks-mt",
    .description = "OpenMP column block tasks, message tasks in parallel, MPI_Test polling (06)",
    .position = 11,
    .result_valid = true,
    .single_rank_only = false,
    .create = make_mpi_omp_tasks_mt_solver,
    .threaded = true,
    .thread_level = MPI_THREAD_MULTIPLE,
}};

}  // namespace
}  // namespace heat
