// SPDX-License-Identifier: BSD-3-Clause
// Ways of writing a rank count as a product of one factor per dimension: the process-grid shapes
// that src/dist (TeamSpec::balanced, make_pattern) and src/topo (CartGrid "auto", node blocks)
// both choose from (docs/dist.md, "Patterns and teams"; docs/topology.md). Plain arithmetic, no MPI; it lives
// in the bottom layer so that dist and topo share it without depending on each other.
#pragma once

#include <functional>

namespace ghostwire::detail {

// Calls visit(factors) for every ordered way of writing `ranks` (>= 1) as a product of
// `dimensions` factors, where dimensions that are not `free` get 1; `factors` has `dimensions`
// entries and is valid during the call only.
void for_each_factorisation(int ranks, int dimensions, const bool* free, const std::function<void(const int*)>& visit);

// As MPI_Dims_create: `ranks` as `dimensions` factors as equal as possible, non-increasing, into
// factors[0..dimensions). Raises invalid_argument naming `context` unless ranks >= 1 and
// dimensions >= 1.
void balanced_factors(int ranks, int dimensions, int* factors, const char* context);

}  // namespace ghostwire::detail
