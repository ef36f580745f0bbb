// SPDX-License-Identifier: BSD-3-Clause
// The initial field (fields.hpp): --init one or hash (see docs/cfdproxy.md, "How it works").
#include "fields.hpp"

#include <algorithm>

namespace cfdproxy {

Fields::Fields(ghostwire::World& world, const LocalDomain& d)
    : var(static_cast<std::size_t>(d.all) * gradient_variables),
      grad_segment(world, static_cast<std::size_t>(d.all) * gradient_values * sizeof(double)),
      grad(reinterpret_cast<double*>(grad_segment.data())),
      flux(static_cast<std::size_t>(d.all) * flux_components) {}

double hashed_value(std::int64_t gid, int eq) {
  const std::uint64_t h =
      (static_cast<std::uint64_t>(gid) * 2654435761ull + static_cast<std::uint64_t>(eq + 1) * 40503ull) % 1000003ull;
  return 1.0 + static_cast<double>(h) / 1000003.0;
}

void initialise(const LocalDomain& d, InitialField init, Fields& fields) {
  for (std::int32_t p = 0; p < d.all; ++p)
    for (int eq = 0; eq < gradient_variables; ++eq)
      fields.var[static_cast<std::size_t>(p) * gradient_variables + static_cast<std::size_t>(eq)] =
          init == InitialField::one ? 1.0 : hashed_value(d.global_id[static_cast<std::size_t>(p)], eq);
  std::fill_n(fields.grad, static_cast<std::size_t>(d.all) * gradient_values, 1.0);
  std::fill(fields.flux.begin(), fields.flux.end(), 1.0);
}

}  // namespace cfdproxy
