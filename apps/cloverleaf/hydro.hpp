// SPDX-License-Identifier: BSD-3-Clause
// Simulation: the reference's start.f90 (initial state) and hydro.f90 (the timestep loop) on one
// chunk, with its exchange behind a HaloUpdate. Each step: timestep (ideal gas, viscosity, the
// stable dt as the global minimum), PdV predictor, accelerate, PdV corrector, flux_calc, advection
// (cells then momentum, one direction then the other, the first direction alternating from step to
// step), reset_field; field summaries every summary_frequency steps and at the end.
//
// See docs/cloverleaf.md, "The timestep".
#pragma once

#include <mpi.h>

#include <optional>
#include <stdexcept>

#include "chunk.hpp"
#include "deck.hpp"
#include "halo.hpp"
#include "kernels.hpp"
#include "options.hpp"
#include "output.hpp"
#include "profile.hpp"
#include "summary.hpp"

namespace cloverleaf {

// The run cannot go on (the timestep fell below the deck's minimum). Every rank sees the same
// global dt, so every rank throws it at the same step.
class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunResult {
  int steps = 0;
  double sim_time = 0;     // the simulated time reached
  double wall = 0;         // seconds of the timestep loop, final summary included (the reference's wall clock)
  double first_step = 0, second_step = 0;
  Summary last;            // the final summary (valid on rank 0)
  std::optional<Verdict> verdict;
};

class Simulation {
 public:
  Simulation(const Deck& deck, const Options& options, Chunk& chunk, HaloUpdate& halo, MPI_Comm comm, Output& out,
             Profile& profile);
  void start();
  RunResult run();

 private:
  void timestep();
  void pdv(bool predict);
  void advection();
  Summary summary();
  void visit();
  void step_line(const DtResult& limit);

  const Deck& deck_;
  const Options& options_;
  Chunk& chunk_;
  HaloUpdate& halo_;
  MPI_Comm comm_;
  Output& out_;
  Profile& profile_;
  int end_step_;

  int step_ = 0;
  double time_ = 0, dt_ = 0, dtold_ = 0;
  bool advect_x_ = true;
  bool first_visit_ = true;
};

}  // namespace cloverleaf
