// SPDX-License-Identifier: BSD-3-Clause
// gw-omp-tasks: OpenMP tasks, one per column block and sweep (column_block_tasks.hpp), whose
// dependences on the neighbour ranks are ghostwire notifications on gw-pipelined's plan (a channel
// per column block, rows read in place, acknowledged by reply: column_block_plan.hpp). Task (t, j)
//
//   1. polls block j's slots until the upper rank's last row after its sweep t and (from sweep 1
//      on) the lower rank's first row after its sweep t-1 have arrived, and the neighbours have
//      consumed the rows this block sent after sweep t-1 (it is about to overwrite them);
//   2. relaxes the column block, reading the node peers' rows where they are;
//   3. sends its first row up (not after the last sweep; then it acknowledges the upper row on
//      its own) and its last row down, from whichever thread runs it.
//
// Only block j's tasks touch channel j, and they run one after the other (each names block j
// inout), so each slot of the plan is driven by one thread at a time, which is what the plan
// allows with MPI_THREAD_MULTIPLE. A task's per-block state is handed from one task of the block
// to the next by that same dependence.
//
// See docs/heat.md, "The hybrid variants".
#include <string>
#include <vector>

#include "column_block_tasks.hpp"
#include "ghostwire_solver.hpp"
#include "hybrid.hpp"
#include "tile_kernel.hpp"

namespace heat {
namespace {

// What a block's tasks know about its slots, one cache line per block (different threads run
// neighbouring blocks).
struct alignas(64) BlockSlots {
  int upper_received = 0;       // messages from the upper rank (the one for sweep t is the (t+1)-th)
  int lower_received = 0;       // messages from the lower rank (the one for sweep t is the t-th)
  bool first_row_sent = false;  // and not yet known to be consumed by the upper rank
  bool last_row_sent = false;   // and not yet known to be consumed by the lower rank
};

class GwColumnBlockTasks final : public ColumnBlockTasks {
 public:
  GwColumnBlockTasks(const Decomposition& d, const HybridContext& hybrid, Band& band, ColumnBlockPlan* messages)
      : ColumnBlockTasks(d, hybrid),
        band_(band),
        messages_(messages),
        has_upper_(messages != nullptr && messages->has_upper()),
        has_lower_(messages != nullptr && messages->has_lower()),
        blocks_(static_cast<std::size_t>(d.tile_cols)) {}

  // After run(): the last rows of the last sweep are still being read by the lower rank.
  void finish() {
    for (int j = 0; j < decomposition().tile_cols; ++j) {
      if (blocks_[static_cast<std::size_t>(j)].last_row_sent) messages_->wait_last_row_consumed(j);
    }
  }

 private:
  void create_level(int level) override {
    for_each_task(level, [&](int t, int j) { create_compute_task(level, t, j); });
  }

  void compute(int t, int j) override {
    BlockSlots& block = blocks_[static_cast<std::size_t>(j)];
    Backoff wait(hybrid());
    while (!ready(t, j, block)) {
#pragma omp taskyield
      wait.pause([&] { return describe_wait(t, j, block); });
    }
    // The lower halo of sweep 0 is the initial one, in this rank's own halo row: the lower rank
    // may already be rewriting its first row.
    const double* above = has_upper_ ? messages_->upper_halo_source(j) : nullptr;
    const double* below = has_lower_ && t > 0 ? messages_->lower_halo_source(j) : nullptr;
    relax_column_block_rows(band_, decomposition(), j, 1, decomposition().band_rows, above, below);
    if (messages_ != nullptr) messages_->release_halos(j);
    if (has_upper_ && t + 1 < timesteps()) {
      messages_->send_first_row(j);
      block.first_row_sent = true;
    } else if (has_upper_) {
      messages_->acknowledge_upper_halo(j);  // no first row answers the upper rank's last one
    }
    if (has_lower_) {
      messages_->send_last_row(j);
      block.last_row_sent = true;
    }
  }

  // One poll of everything (t, j) waits for; true when it may run.
  bool ready(int t, int j, BlockSlots& block) {
    if (has_upper_ && block.upper_received == t) {
      if (!messages_->receive_upper_halo(j)) return false;
      ++block.upper_received;
    }
    if (has_lower_ && block.lower_received < t) {
      if (!messages_->receive_lower_halo(j)) return false;
      ++block.lower_received;
    }
    if (block.first_row_sent) {
      if (!messages_->first_row_consumed(j)) return false;
      block.first_row_sent = false;
    }
    if (block.last_row_sent) {
      if (!messages_->last_row_consumed(j)) return false;
      block.last_row_sent = false;
    }
    return true;
  }

  std::string describe_wait(int t, int j, const BlockSlots& block) const {
    std::string wants;
    if (has_upper_ && block.upper_received == t) {
      wants = "the upper rank's last row after its sweep " + std::to_string(t);
    } else if (has_lower_ && block.lower_received < t) {
      wants = "the lower rank's first row after its sweep " + std::to_string(t - 1);
    } else if (block.first_row_sent) {
      wants = "the upper rank to consume my first row";
    } else {
      wants = "the lower rank to consume my last row";
    }
    return "gw-omp-tasks " + messages_->describe() + ": column block " + std::to_string(j) + " in sweep " +
           std::to_string(t) + " waits for " + wants;
  }

  Band& band_;
  ColumnBlockPlan* messages_;
  bool has_upper_, has_lower_;
  std::vector<BlockSlots> blocks_;
};

class GwOmpTasksSolver final : public GhostwireSolver {
 public:
  explicit GwOmpTasksSolver(const SolverContext& context)
      : GhostwireSolver(context, ColumnBlockPlan::Protocol::in_place),
        hybrid_(make_hybrid_context(context.comm, context.threads)) {}

  void run(Band& band, int timesteps) override {
    GwColumnBlockTasks tasks(decomposition(), hybrid_, band, messages());
    tasks.run(timesteps);
    if (messages() != nullptr) tasks.finish();
  }

 private:
  HybridContext hybrid_;
};

std::unique_ptr<Solver> make_gw_omp_tasks_solver(const SolverContext& context) {
  return std::make_unique<GwOmpTasksSolver>(context);
}

const VariantRegistration registration{Variant{
    .name = "gw-omp-tasks",
    .description = "OpenMP column block tasks waiting for ghostwire notifications",
    .position = 12,
    .result_valid = true,
    .single_rank_only = false,
    .create = make_gw_omp_tasks_solver,
    .threaded = true,
    .thread_level = MPI_THREAD_MULTIPLE,
}};

}  // namespace
}  // namespace heat
