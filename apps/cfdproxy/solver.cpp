// SPDX-License-Identifier: BSD-3-Clause
// run_iterations (solver.hpp): a timed round, phase by phase, between MPI barriers (see
// docs/cfdproxy.md, "How it works" and "Threads and colours").
//
// One parallel region per round. Per iteration thread 0 starts the exchange (receives posted, the
// last messages' buffers free), the threads sweep their gradient shares (a partner's message
// leaves from the thread that finishes its last part of it), thread 0 completes the exchange, the
// threads sweep their flux shares. The threads meet at the team's barrier between these steps:
// the flux reads every thread's gradients, and the next gradient overwrites what the flux reads.
#include "solver.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

#include "kernel.hpp"

namespace cfdproxy {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

}  // namespace

PhaseTimes run_iterations(const LocalDomain& d, Fields& fields, Exchange& exchange, int iterations, MPI_Comm comm,
                          ThreadTeam& team) {
  if (d.threads() != team.threads())
    throw std::logic_error("run_iterations: the domain is divided among " + std::to_string(d.threads()) +
                           " threads, the team has " + std::to_string(team.threads()));
  double phases[3] = {};  // gradient, exchange, flux: this rank's sums (thread 0's clock)
  MPI_Barrier(comm);
  const Clock::time_point start = Clock::now();
  team.run([&](int thread) {
    const Share& share = d.shares[static_cast<std::size_t>(thread)];
    Clock::time_point t0, t1, t2;
    for (int i = 0; i < iterations; ++i) {
      if (thread == 0) {
        t0 = Clock::now();
        exchange.begin();
      }
      team.barrier();
      for (std::size_t c = 0; c < share.colours.size(); ++c) {
        gradient_colour(d, share, share.colours[c], fields.var.data(), fields.grad);
        exchange.after_colour(thread, c);
      }
      team.barrier();
      if (thread == 0) {
        t1 = Clock::now();
        exchange.complete();
        t2 = Clock::now();
      }
      team.barrier();
      for (const Colour& colour : share.colours) flux_colour(share, colour, fields.grad, fields.flux.data());
      team.barrier();
      if (thread == 0) {
        const Clock::time_point t3 = Clock::now();
        phases[0] += seconds_between(t0, t1);
        phases[1] += seconds_between(t1, t2);
        phases[2] += seconds_between(t2, t3);
      }
    }
  });
  MPI_Barrier(comm);
  const double total = seconds_between(start, Clock::now());
  MPI_Allreduce(MPI_IN_PLACE, phases, 3, MPI_DOUBLE, MPI_MAX, comm);
  return PhaseTimes{total / iterations, phases[0] / iterations, phases[1] / iterations, phases[2] / iterations};
}

}  // namespace cfdproxy
