// SPDX-License-Identifier: BSD-3-Clause
// Where the halo implementations can run, and how to make them (their names: exchanger_names.cpp).
#include <stdexcept>

#include "../run_context.hpp"
#include "exchanger.hpp"

namespace gwbench::halo {

std::string unavailable_reason(std::string_view name, const RunContext& context) {
  if (name == "raw" && context.hosts() > 1)
    return "the ranks span " + std::to_string(context.hosts()) + " hosts, so not all of them share memory";
  if (name.substr(0, 6) == "petsc-" && !GW_BENCH_HAVE_PETSC)
    return "gw-bench was built without PETSc (Debian's petsc-dev, Open MPI builds only)";
  if (name == "petsc-ghostwire" && !GW_BENCH_PETSC_TYPE_LIBRARY[0])
    return "libghostwire_petsc.so (the PetscSF type ghostwire) was not built in this tree";
  if (name == "ga" && !GW_BENCH_HAVE_GA)
    return "gw-bench was built without Global Arrays (Debian's libglobalarrays-dev and libarmci-mpi-dev, Open MPI builds only)";
  return "";
}

void Exchanger::reverse_sum() { throw std::logic_error("this halo implementation has no reverse exchange"); }

std::unique_ptr<Exchanger> make_exchanger(std::string_view name, const ExchangerSetup& setup) {
  if (std::string why = unavailable_reason(name, setup.context); !why.empty())
    throw std::runtime_error("implementation " + std::string(name) + " cannot run here: " + why);
  if (std::string_view why = reverse_unsupported_reason(name); setup.direction == Direction::reverse && !why.empty())
    throw std::logic_error("implementation " + std::string(name) + " has no reverse exchange: " + std::string(why));
  if (name == "gw") return make_gw_exchanger(setup, std::nullopt);
  if (name == "gw-node") return make_gw_exchanger(setup, ghostwire::Aggregation::node);
  if (name == "gw-off") return make_gw_exchanger(setup, ghostwire::Aggregation::off);
  if (name == "gw-private") return make_gw_exchanger(setup, std::nullopt, true);
  if (name == "mpi-isend") return make_mpi_isend_exchanger(setup);
  if (name == "mpi-persistent") return make_mpi_persistent_exchanger(setup);
  if (name == "mpi-alltoallw") return make_mpi_alltoallw_exchanger(setup);
  if (name == "mpi-put") return make_mpi_put_exchanger(setup);
  if (name == "raw") return make_raw_exchanger(setup);
#if GW_BENCH_HAVE_PETSC
  if (name.substr(0, 6) == "petsc-") return make_petsc_exchanger(setup, name.substr(6));
#endif
#if GW_BENCH_HAVE_GA
  if (name == "ga") return make_ga_exchanger(setup);
#endif
  throw std::runtime_error("unknown implementation " + std::string(name));
}

void end_peer_sessions() {
#if GW_BENCH_HAVE_PETSC
  end_petsc_session();
#endif
#if GW_BENCH_HAVE_GA
  end_ga_session();
#endif
}

}  // namespace gwbench::halo
