// SPDX-License-Identifier: BSD-3-Clause
// Where the halo implementations can run, and how to make them (their names: exchanger_names.cpp).
#include <stdexcept>

#include "../run_context.hpp"
#include "exchanger.hpp"

namespace gwbench::halo {

std::string unavailable_reason(std::string_view name, const RunContext& context) {
  if (name == "raw" && context.hosts() > 1)
    return "the ranks span " + std::to_string(context.hosts()) + " hosts, so not all of them share memory";
  return "";
}

void Exchanger::reverse_sum() { throw std::logic_error("this halo implementation has no reverse exchange"); }

std::unique_ptr<Exchanger> make_exchanger(std::string_view name, const ExchangerSetup& setup) {
  if (std::string why = unavailable_reason(name, setup.context); !why.empty())
    throw std::runtime_error("implementation " + std::string(name) + " cannot run here: " + why);
  if (std::string_view why = reverse_unsupported_reason(name); setup.direction == Direction::reverse && !why.empty())
    throw std::logic_error("implementation " + std::string(name) + " has no reverse exchange: " + std::string(why));
  if (name == "gw") return make_gw_exchanger(setup);
  if (name == "mpi-isend") return make_mpi_isend_exchanger(setup);
  if (name == "mpi-persistent") return make_mpi_persistent_exchanger(setup);
  if (name == "mpi-alltoallw") return make_mpi_alltoallw_exchanger(setup);
  if (name == "mpi-put") return make_mpi_put_exchanger(setup);
  if (name == "raw") return make_raw_exchanger(setup);
  throw std::runtime_error("unknown implementation " + std::string(name));
}

}  // namespace gwbench::halo
