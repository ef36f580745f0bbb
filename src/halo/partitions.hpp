// SPDX-License-Identifier: BSD-3-Clause
// Commit's partition phase (partitions.cpp; docs/plans.md, "Partitions").
#pragma once

#include <string>

#include "halo/plan_state.hpp"

namespace ghostwire::detail {

// Collective. Checks every rank's partition cuts against its messages (all ranks throw together),
// then makes each partition a slot of its own: afterwards p.channels counts the plan's channels.
void expand_partitions(PlanState& p, const std::string& context);

}  // namespace ghostwire::detail
