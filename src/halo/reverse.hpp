// SPDX-License-Identifier: BSD-3-Clause
// The reverse exchange of a plan (Plan::reverse_exchange; docs/plans.md, "Reverse exchange"): ghost
// values go back to the ranks that own them and are combined into the owned elements they were
// filled from. A second plan, the transpose of the first, carries them: it sends the forward
// receive layouts and receives into scratch memory laid out as the forward send layouts; the owner
// then combines scratch into its elements, always in the same order, so results are reproducible.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "ghostwire/combine.hpp"
#include "ghostwire/plan.hpp"
#include "ghostwire/segment.hpp"

namespace ghostwire::detail {

struct PlanState;

// Owned bytes to combine a run of scratch into: one contiguous run of a forward send layout.
struct ReverseRun {
  std::byte* owned;
  std::size_t bytes;
};

// The runs of one forward send piece, whose values lie back to back in scratch from `scratch`.
struct ReverseStretch {
  std::size_t first, end;  // runs[first, end)
  const std::byte* scratch;
  int region;  // the forward plan's region, whose element size the combination's type must divide
};

struct ReverseState {
  // Declared before the plan that reads and writes it, so it goes after it.
  std::unique_ptr<Segment> scratch;
  std::unique_ptr<Plan> plan;
  std::vector<ReverseRun> runs;  // in combining order: by neighbour rank, channel, message order
  std::vector<ReverseStretch> stretches;
  bool started = false;
};

// Collective over the plan's world, once the forward plan is committed (whose commit checked that
// every rank asked for it).
void build_reverse(PlanState& forward);
void reverse_start(PlanState& forward, const char* call);
// Finishes the transpose's exchange and combines; `per_region`: one Combine for every region, or one for all.
void reverse_finish(PlanState& forward, std::span<const Combine> per_region, const char* call);

// owned[i] = op(owned[i], scratch[i]) over every run in order, each a whole number of `how.type`
// values, the runs' scratch values back to back from `scratch`.
void combine_runs(Combine how, std::span<const ReverseRun> runs, const std::byte* scratch);

}  // namespace ghostwire::detail
