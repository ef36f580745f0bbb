// SPDX-License-Identifier: BSD-3-Clause
// What the ghostwire variants share, and commfree with them (it runs gw-pipelined's traversal
// without messages, so it must also run on the same memory): a ghostwire World, the band in a
// ghostwire Segment (node peers read boundary rows in place), the column block plan, and how to
// wait.
//
// See docs/heat.md, "The ghostwire variants".
#pragma once

#include <ghostwire/segment.hpp>
#include <ghostwire/world.hpp>

#include <memory>
#include <optional>

#include "column_block_plan.hpp"
#include "idle_passes.hpp"
#include "solver.hpp"

namespace heat {

class GhostwireSolver : public Solver {
 public:
  // Collective: the segment and (with messages, on more than one rank) the plan.
  std::span<double> allocate_band(std::size_t element_count) override;

 protected:
  // Collective (creates the World). A malformed GHOSTWIRE_* setting is a UsageError. Without a
  // protocol there are no messages (commfree).
  GhostwireSolver(const SolverContext& context, std::optional<ColumnBlockPlan::Protocol> protocol);

  const Decomposition& decomposition() const { return d_; }
  // Null without messages (commfree) and on one rank (no neighbours).
  ColumnBlockPlan* messages() { return messages_.get(); }
  const IdlePolicy& idle_policy() const { return idle_policy_; }

 private:
  Decomposition d_;
  std::optional<ColumnBlockPlan::Protocol> protocol_;
  IdlePolicy idle_policy_;
  // Declared in order of construction; destroyed in reverse, which the collective destructors need.
  std::unique_ptr<ghostwire::World> world_;
  std::unique_ptr<ghostwire::Segment> band_memory_;
  std::unique_ptr<ColumnBlockPlan> messages_;
};

}  // namespace heat
