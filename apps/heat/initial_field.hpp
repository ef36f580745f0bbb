// SPDX-License-Identifier: BSD-3-Clause
// The field before the first sweep: zero inside, the heat sources on the boundary.
// See docs/heat.md, "The algorithm".
#pragma once

#include <vector>

#include "band.hpp"
#include "decomposition.hpp"
#include "heat_sources.hpp"

namespace heat {

// Fills the whole band, halo rows included, with the initial field at the global rows it covers,
// so the halos of the first sweep are already right and no variant needs an initial exchange.
void initialise_band(Band& band, const Decomposition& d, const std::vector<HeatSource>& sources);

}  // namespace heat
