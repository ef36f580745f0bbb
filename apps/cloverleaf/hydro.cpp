// SPDX-License-Identifier: BSD-3-Clause
// Simulation (hydro.hpp): the reference's start and timestep loop, kernel by kernel in its order,
// with its step lines and summaries (see docs/cloverleaf.md, "The timestep").
#include "hydro.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "visit.hpp"

namespace cloverleaf {
namespace {

constexpr double g_small = static_cast<double>(1.0e-16f);  // REAL(8) from a single-precision literal
constexpr double g_big = static_cast<double>(1.0e+21f);

// The fields each of the reference's update_halo calls exchanges.
const FieldMask start_fields{Field::density0, Field::energy0, Field::pressure, Field::viscosity, Field::density1,
                             Field::energy1,  Field::xvel0,   Field::yvel0,    Field::xvel1,     Field::yvel1};
const FieldMask timestep_fields{Field::pressure, Field::energy0, Field::density0, Field::xvel0, Field::yvel0};
const FieldMask viscosity_fields{Field::viscosity};
const FieldMask pressure_fields{Field::pressure};
const FieldMask cell_advection_fields{Field::energy1, Field::density1, Field::vol_flux_x, Field::vol_flux_y};
const FieldMask mom_advection_fields{Field::density1, Field::energy1,     Field::xvel1,
                                     Field::yvel1,    Field::mass_flux_x, Field::mass_flux_y};

// One rank's candidate for the step's limiting cell, as doubles for one allgather.
struct Candidate {
  double dt, x, y, j, k, control;
  std::array<double, 6> values() const { return {dt, x, y, j, k, control}; }
  static Candidate from(const double* v) { return {v[0], v[1], v[2], v[3], v[4], v[5]}; }
};

}  // namespace

Simulation::Simulation(const Deck& deck, const Options& options, Chunk& chunk, HaloUpdate& halo, MPI_Comm comm,
                       Output& out, Profile& profile)
    : deck_(deck),
      options_(options),
      chunk_(chunk),
      halo_(halo),
      comm_(comm),
      out_(out),
      profile_(profile),
      end_step_(options.end_step > 0 ? options.end_step : deck.end_step) {}

void Simulation::start() {
  time_ = 0.0;
  step_ = 0;
  dtold_ = deck_.dtinit;
  dt_ = deck_.dtinit;
  initialise_chunk(chunk_, deck_);
  generate_chunk(chunk_, deck_);
  advect_x_ = true;
  ideal_gas(chunk_, false);
  halo_(start_fields, 2);
  out_.file_only("");
  out_.file_only(" Problem initialised and generated");
  summary();
  if (deck_.visit_frequency != 0) visit();
}

RunResult Simulation::run() {
  profile_.clear();  // the reference profiles the timestep loop only
  RunResult result;
  const double start = MPI_Wtime();
  for (;;) {
    const double step_start = MPI_Wtime();
    ++step_;
    timestep();
    pdv(true);
    {
      KernelTimer t(profile_, Kernel::acceleration);
      accelerate(chunk_, dt_);
    }
    pdv(false);
    {
      KernelTimer t(profile_, Kernel::fluxes);
      flux_calc(chunk_, dt_);
    }
    advection();
    {
      KernelTimer t(profile_, Kernel::reset);
      reset_field(chunk_);
    }
    advect_x_ = !advect_x_;
    time_ = time_ + dt_;
    if (deck_.summary_frequency != 0 && step_ % deck_.summary_frequency == 0) summary();
    if (deck_.visit_frequency != 0 && step_ % deck_.visit_frequency == 0) visit();
    if (step_ == 1) result.first_step = MPI_Wtime() - step_start;
    if (step_ == 2) result.second_step = MPI_Wtime() - step_start;

    if (time_ + g_small > deck_.end_time || step_ >= end_step_) {
      result.last = summary();
      if (deck_.visit_frequency != 0) visit();
      result.wall = MPI_Wtime() - start;
      result.steps = step_;
      result.sim_time = time_;
      // The test problem's expected energy is the deck's own end; a run that --end-step stopped
      // elsewhere is not checked (a benchmark may cut a deck short), and says so.
      const bool deck_end = options_.end_step <= 0 || options_.end_step == deck_.end_step ||
                            (time_ + g_small > deck_.end_time && step_ <= deck_.end_step);
      if (out_.writes() && deck_end)
        result.verdict = check_test_problem(deck_.test_problem, result.last.kinetic_energy);
      if (!deck_end && deck_.test_problem != 0) {
        out_.both(format(" Test problem %d not checked: --end-step %d stopped the run at step %d, the deck ends at "
                         "step %d or time %.10g",
                         deck_.test_problem, options_.end_step, step_, deck_.end_step, deck_.end_time));
      }
      return result;
    }
    const double wall = MPI_Wtime() - start;
    const double cells = static_cast<double>(deck_.x_cells) * static_cast<double>(deck_.y_cells);
    out_.progress(format(" Wall clock %.10g", wall));
    out_.file_only(format(" Average time per cell %.10g", wall / (step_ * cells)));
    out_.file_only(format(" Step time per cell    %.10g", (MPI_Wtime() - step_start) / cells));
  }
}

void Simulation::timestep() {
  {
    KernelTimer t(profile_, Kernel::ideal_gas);
    ideal_gas(chunk_, false);
  }
  halo_(timestep_fields, 1);
  {
    KernelTimer t(profile_, Kernel::viscosity);
    viscosity(chunk_);
  }
  halo_(viscosity_fields, 1);

  DtResult limit;
  {
    KernelTimer t(profile_, Kernel::timestep);
    limit = calc_dt(chunk_, deck_);
    // The global minimum, and with it the limiting cell: every rank's candidate, the first smallest
    // wins (one collective, as the reference's MPI_Allreduce of dt; the exchange variant's own).
    const Candidate mine{limit.dt,
                         limit.x,
                         limit.y,
                         static_cast<double>(chunk_.d.x_offset + limit.j + 1),
                         static_cast<double>(chunk_.d.y_offset + limit.k + 1),
                         static_cast<double>(static_cast<int>(limit.control))};
    const auto mine_values = mine.values();
    std::vector<double> all(mine_values.size() * static_cast<std::size_t>(chunk_.d.ranks));
    halo_.allgather(mine_values, all);
    Candidate best{g_big, 0, 0, 0, 0, 1};
    for (std::size_t r = 0; r < all.size(); r += mine_values.size()) {
      const Candidate c = Candidate::from(&all[r]);
      if (c.dt < best.dt) best = c;
    }
    dt_ = std::min({best.dt, dtold_ * deck_.dtrise, deck_.dtmax});
    limit = DtResult{dt_, static_cast<DtControl>(static_cast<int>(best.control)), static_cast<Index>(best.j),
                     static_cast<Index>(best.k), best.x, best.y};
  }
  step_line(limit);
  if (dt_ < deck_.dtmin) {
    throw SimulationError(format("step %d: the timestep %.6g is below the smallest allowed, %.6g (control %s at cell "
                                 "%lld, %lld: x %.6g, y %.6g)",
                                 step_, dt_, deck_.dtmin, control_name(limit.control), static_cast<long long>(limit.j),
                                 static_cast<long long>(limit.k), limit.x, limit.y));
  }
  dtold_ = dt_;
}

void Simulation::step_line(const DtResult& limit) {
  // The reference's format: its control is a CHARACTER(8) written as a11 (three blanks, then the word padded to 8).
  out_.progress(format(" Step %7d time %11.7f control    %-8s timestep  %9.2E%8lld,%8lld x %9.2E y %9.2E", step_, time_,
                       control_name(limit.control), dt_, static_cast<long long>(limit.j),
                       static_cast<long long>(limit.k), limit.x, limit.y));
}

void Simulation::pdv(bool predict) {
  {
    KernelTimer t(profile_, Kernel::pdv);
    cloverleaf::pdv(chunk_, predict, dt_);
  }
  if (predict) {
    {
      KernelTimer t(profile_, Kernel::ideal_gas);
      ideal_gas(chunk_, true);
    }
    halo_(pressure_fields, 1);
    KernelTimer t(profile_, Kernel::revert);
    revert(chunk_);
  }
}

void Simulation::advection() {
  const int x = 1, y = 2;
  int direction = advect_x_ ? x : y;
  halo_(cell_advection_fields, 2);
  {
    KernelTimer t(profile_, Kernel::cell_advection);
    advec_cell(chunk_, direction, 1);
  }
  halo_(mom_advection_fields, 2);
  {
    KernelTimer t(profile_, Kernel::mom_advection);
    advec_mom(chunk_, x, direction, 1);
    advec_mom(chunk_, y, direction, 1);
  }
  direction = advect_x_ ? y : x;
  {
    KernelTimer t(profile_, Kernel::cell_advection);
    advec_cell(chunk_, direction, 2);
  }
  halo_(mom_advection_fields, 2);
  {
    KernelTimer t(profile_, Kernel::mom_advection);
    advec_mom(chunk_, x, direction, 2);
    advec_mom(chunk_, y, direction, 2);
  }
}

Summary Simulation::summary() {
  const Summary s = field_summary(chunk_, comm_, profile_, step_, time_);
  out_.both("");
  out_.both(format(" Time %.17g", time_));
  out_.both(summary_header());
  out_.both(summary_line(s));
  out_.flush();
  return s;
}

void Simulation::visit() {
  write_visit(chunk_, halo_, profile_, step_, first_visit_);
  first_visit_ = false;
}

}  // namespace cloverleaf
