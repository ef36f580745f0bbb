// SPDX-License-Identifier: BSD-3-Clause
// field_summary.f90: the mesh's totals (ideal gas first, then this chunk's sums, then their sum on
// rank 0), printed as one line per summary, and with test_problem N the reference's verdict on the
// final kinetic energy.
// See docs/cloverleaf.md, "Output".
#pragma once

#include <mpi.h>

#include <optional>
#include <string>

#include "chunk.hpp"
#include "profile.hpp"

namespace cloverleaf {

struct Summary {
  int step = 0;
  double time = 0;
  double volume = 0, mass = 0, pressure_volume = 0, internal_energy = 0, kinetic_energy = 0;  // rank 0
  double density() const { return mass / volume; }
  double pressure() const { return pressure_volume / volume; }
  double total_energy() const { return internal_energy + kinetic_energy; }
};

Summary field_summary(Chunk& chunk, MPI_Comm comm, Profile& profile, int step, double time);

// " step: <n> <Volume> <Mass> <Density> <Pressure> <Internal energy> <Kinetic energy> <Total energy>",
// every value %.17g (enough digits to read back the same double).
std::string summary_line(const Summary& s);
// The column titles printed above it.
std::string summary_header();

struct Verdict {
  int test_problem = 0;
  double expected_kinetic_energy = 0;
  double qa_diff = 0;  // |100 * KE / expected - 100|, a percentage
  bool passed = false;
};
// The reference's check (field_summary.f90) for test problems 1 to 5; nothing for 0.
std::optional<Verdict> check_test_problem(int test_problem, double kinetic_energy);
// "Test problem   2 is within   0.1136868E-12% of the expected solution" and the PASSED line.
std::string verdict_lines(const Verdict& v);

}  // namespace cloverleaf
