// SPDX-License-Identifier: BSD-3-Clause
// The solver's point data. The gradients live in a ghostwire Segment so that node peers can read
// them in place (the gw variant's one copy); every variant uses the same memory.
// See docs/cfdproxy.md, "How it works".
#pragma once

#include <cstdint>
#include <vector>

#include <ghostwire/ghostwire.hpp>

#include "local_domain.hpp"
#include "options.hpp"

namespace cfdproxy {

inline constexpr std::size_t gradient_values = gradient_variables * 3;  // per point

struct Fields {
  Fields(ghostwire::World& world, const LocalDomain& d);
  std::vector<double> var;   // [all][7]
  ghostwire::Segment grad_segment;
  double* grad;              // [all][7][3], in grad_segment
  std::vector<double> flux;  // [all][3]
};

// var from the initial field (halo points get their owner's value: the same formula of the global
// id); grad and flux 1.0 everywhere, as the reference starts.
void initialise(const LocalDomain& d, InitialField init, Fields& fields);

// The --init hash value of variable eq at global point gid.
double hashed_value(std::int64_t gid, int eq);

}  // namespace cfdproxy
