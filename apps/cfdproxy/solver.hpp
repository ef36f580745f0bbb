// SPDX-License-Identifier: BSD-3-Clause
// One timed round: `iterations` times the gradient (with the exchange's sends between colours), the
// exchange's completion and the flux, between two barriers.
// See docs/cfdproxy.md, "How it works".
#pragma once

#include <mpi.h>

#include "exchange.hpp"
#include "fields.hpp"
#include "local_domain.hpp"

namespace cfdproxy {

struct PhaseTimes {  // seconds per iteration; phases: the slowest rank's
  double total = 0, gradient = 0, exchange = 0, flux = 0;
};

PhaseTimes run_iterations(const LocalDomain& d, Fields& fields, Exchange& exchange, int iterations, MPI_Comm comm);

}  // namespace cfdproxy
