// SPDX-License-Identifier: BSD-3-Clause
// Per-kernel wall time, in the reference's profiler categories (hydro.f90), plus the parts of a halo
// update: the exchange itself, the --sync global barrier, and the reflective boundaries (the
// reference's "self halo exchange"). Always collected (two clock reads per kernel call); printed
// as the reference's table with profiler_on in the deck or --profile, and always in the JSON line.
//
// See docs/cloverleaf.md, "Output".
#pragma once

#include <mpi.h>

#include <array>

namespace cloverleaf {

enum class Kernel : int {
  timestep,
  ideal_gas,
  viscosity,
  pdv,
  revert,
  acceleration,
  fluxes,
  cell_advection,
  mom_advection,
  reset,
  summary,
  visit,
  halo_exchange,
  halo_sync,
  halo_reflect,
};
inline constexpr int kernel_count = 15;

const char* kernel_label(Kernel k);  // "Cell Advection"
const char* kernel_key(Kernel k);    // "cell_advection", for JSON

struct Profile {
  std::array<double, kernel_count> seconds{};
  double total() const {
    double t = 0;
    for (double s : seconds) t += s;
    return t;
  }
  void clear() { seconds.fill(0.0); }
};

class KernelTimer {
 public:
  KernelTimer(Profile& profile, Kernel kernel) : profile_(profile), kernel_(kernel), start_(MPI_Wtime()) {}
  ~KernelTimer() { profile_.seconds[static_cast<std::size_t>(kernel_)] += MPI_Wtime() - start_; }
  KernelTimer(const KernelTimer&) = delete;
  KernelTimer& operator=(const KernelTimer&) = delete;

 private:
  Profile& profile_;
  Kernel kernel_;
  double start_;
};

}  // namespace cloverleaf
