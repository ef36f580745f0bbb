// SPDX-License-Identifier: BSD-3-Clause
// commfree: no halo exchange at all, the benchmark's floor (the study's theoretical optimum). The
// ghost cells shared with other chunks keep whatever they held, so the physics is wrong from the
// first step; the timestep's minimum and --sync global's barrier are the mpi exchange's, so the
// run takes the same steps in the same lockstep and differs from mpi only by the exchange.
//
// See docs/cloverleaf.md, "Exchange variants".
#include <mpi.h>

#include "exchange.hpp"

namespace cloverleaf {
namespace {

class CommfreeExchange final : public Exchange {
 public:
  explicit CommfreeExchange(const ExchangeSetup& setup) : comm_(setup.comm) {}

  void update_halo(FieldMask, int) override {}
  void barrier() override { MPI_Barrier(comm_); }
  void allgather(std::span<const double> mine, std::span<double> all) override { allgather_by_mpi(comm_, mine, all); }

 private:
  MPI_Comm comm_;
};

std::unique_ptr<Exchange> make(const ExchangeSetup& setup) { return std::make_unique<CommfreeExchange>(setup); }

const ExchangeRegistration registration{"commfree", "no exchange (wrong results): the benchmark's floor", make};

}  // namespace
}  // namespace cloverleaf
