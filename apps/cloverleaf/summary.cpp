// SPDX-License-Identifier: BSD-3-Clause
// field_summary and the test problem's verdict (summary.hpp), in the reference's format (see
// docs/cloverleaf.md, "Output").
#include "summary.hpp"

#include <cmath>

#include "kernels.hpp"
#include "output.hpp"

namespace cloverleaf {

Summary field_summary(Chunk& chunk, MPI_Comm comm, Profile& profile, int step, double time) {
  {
    KernelTimer t(profile, Kernel::ideal_gas);
    ideal_gas(chunk, false);
  }
  KernelTimer t(profile, Kernel::summary);
  const FieldSums local = field_summary_kernel(chunk);
  // The reference's clover_sum: MPI_Reduce to rank 0, in its order (vol, mass, press, ie, ke).
  double values[5] = {local.vol, local.mass, local.press, local.ie, local.ke};
  double totals[5] = {local.vol, local.mass, local.press, local.ie, local.ke};
  MPI_Reduce(values, totals, 5, MPI_DOUBLE, MPI_SUM, 0, comm);
  Summary s;
  s.step = step;
  s.time = time;
  s.volume = totals[0];
  s.mass = totals[1];
  s.pressure_volume = totals[2];
  s.internal_energy = totals[3];
  s.kinetic_energy = totals[4];
  return s;
}

std::string summary_line(const Summary& s) {
  return format(" step: %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g", s.step, s.volume, s.mass, s.density(),
                s.pressure(), s.internal_energy, s.kinetic_energy, s.total_energy());
}

std::string summary_header() {
  return "       Volume Mass Density Pressure Internal_Energy Kinetic_Energy Total_Energy";
}

std::optional<Verdict> check_test_problem(int test_problem, double kinetic_energy) {
  // The reference's hard-coded final kinetic energies.
  static constexpr double expected[] = {0, 1.82280367310258, 1.19316898756307, 2.58984003503994, 0.307475452287895,
                                        4.85350315783719};
  if (test_problem < 1 || test_problem > 5) return std::nullopt;
  Verdict v;
  v.test_problem = test_problem;
  v.expected_kinetic_energy = expected[test_problem];
  v.qa_diff = std::abs((100.0 * (kinetic_energy / v.expected_kinetic_energy)) - 100.0);
  v.passed = v.qa_diff < static_cast<double>(0.001f);  // a default-precision literal in the reference
  return v;
}

std::string verdict_lines(const Verdict& v) {
  return format("Test problem%4d is within%s%% of the expected solution\n This test is considered %s", v.test_problem,
                fortran_e(v.qa_diff, 16, 7).c_str(), v.passed ? "PASSED" : "NOT PASSED");
}

}  // namespace cloverleaf
