// SPDX-License-Identifier: BSD-3-Clause
// One timed round: `iterations` times the gradient (each thread sweeping its share, the exchange's
// sends between its colours), the exchange's completion and the flux, between two barriers.
// See docs/cfdproxy.md, "How it works" and "Threads and colours".
#pragma once

#include <mpi.h>

#include "exchange.hpp"
#include "fields.hpp"
#include "local_domain.hpp"
#include "thread_team.hpp"

namespace cfdproxy {

struct PhaseTimes {  // seconds per iteration; phases: the slowest rank's
  double total = 0, gradient = 0, exchange = 0, flux = 0;
};

// d.threads() must be team.threads().
PhaseTimes run_iterations(const LocalDomain& d, Fields& fields, Exchange& exchange, int iterations, MPI_Comm comm,
                          ThreadTeam& team);

}  // namespace cfdproxy
