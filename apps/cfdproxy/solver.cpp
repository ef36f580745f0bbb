// SPDX-License-Identifier: BSD-3-Clause
// run_iterations (solver.hpp): a timed round, phase by phase, between barriers (see
// docs/cfdproxy.md, "How it works").
#include "solver.hpp"

#include <chrono>

#include "kernel.hpp"

namespace cfdproxy {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

}  // namespace

PhaseTimes run_iterations(const LocalDomain& d, Fields& fields, Exchange& exchange, int iterations, MPI_Comm comm) {
  double phases[3] = {};  // gradient, exchange, flux: this rank's sums
  MPI_Barrier(comm);
  const Clock::time_point start = Clock::now();
  for (int i = 0; i < iterations; ++i) {
    const Clock::time_point t0 = Clock::now();
    exchange.begin();
    for (std::size_t c = 0; c < d.colours.size(); ++c) {
      gradient_colour(d, d.colours[c], fields.var.data(), fields.grad);
      exchange.after_colour(c);
    }
    const Clock::time_point t1 = Clock::now();
    exchange.complete();
    const Clock::time_point t2 = Clock::now();
    for (const Colour& colour : d.colours) flux_colour(d, colour, fields.grad, fields.flux.data());
    const Clock::time_point t3 = Clock::now();
    phases[0] += seconds_between(t0, t1);
    phases[1] += seconds_between(t1, t2);
    phases[2] += seconds_between(t2, t3);
  }
  MPI_Barrier(comm);
  const double total = seconds_between(start, Clock::now());
  MPI_Allreduce(MPI_IN_PLACE, phases, 3, MPI_DOUBLE, MPI_MAX, comm);
  return PhaseTimes{total / iterations, phases[0] / iterations, phases[1] / iterations, phases[2] / iterations};
}

}  // namespace cfdproxy
