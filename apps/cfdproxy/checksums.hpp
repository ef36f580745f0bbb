// SPDX-License-Identifier: BSD-3-Clause
// The checksums gw-cfdproxy prints after its last iteration (over all ranks): gradients and fluxes
// of the owned points, gradients of the ghost points (which the exchange fills).
// See docs/cfdproxy.md, "Running it".
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "fields.hpp"
#include "local_domain.hpp"

namespace cfdproxy {

struct Checksums {
  double sum_grad_owned = 0, sumabs_grad_owned = 0, maxabs_grad_owned = 0;
  double sum_psdflux_owned = 0, sumabs_psdflux_owned = 0, sumsq_psdflux_owned = 0, maxabs_psdflux_owned = 0;
  double sum_grad_halo = 0, sumabs_grad_halo = 0;
  std::int64_t total_owned_points = 0;

  // (name, value) in the order they are printed.
  std::vector<std::pair<std::string, double>> named() const;
};

Checksums compute_checksums(const LocalDomain& d, const Fields& fields, MPI_Comm comm);

// "checksum <name> <value>" lines, values as %.17g.
std::string checksum_lines(const Checksums& c, const std::string& suffix = "");

}  // namespace cfdproxy
