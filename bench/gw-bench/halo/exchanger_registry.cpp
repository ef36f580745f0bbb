// Which halo implementations exist, where they can run, and how to make them.
#include <stdexcept>

#include "../run_context.hpp"
#include "exchanger.hpp"

namespace gwbench::halo {

const std::vector<std::string>& exchanger_names() {
  static const std::vector<std::string> names = {"gw",      "mpi-isend", "mpi-persistent", "mpi-alltoallw",
                                                 "mpi-put", "raw"};
  return names;
}

std::string_view exchanger_summary(std::string_view name) {
  if (name == "gw") return "ghostwire Plan built once, plan.exchange() (arrays in a Segment, read in place)";
  if (name == "mpi-isend") return "MPI_Irecv / MPI_Isend + MPI_Waitall, hand-written pack and unpack";
  if (name == "mpi-persistent") return "MPI_Recv_init / MPI_Send_init once; pack, MPI_Startall, MPI_Waitall, unpack";
  if (name == "mpi-alltoallw") return "MPI_Neighbor_alltoallw, derived datatypes on the array, no packing";
  if (name == "mpi-put") return "pack, MPI_Put into the neighbours' receive buffers between MPI_Win_fence, unpack";
  if (name == "raw") return "the floor: copy straight from the neighbours' arrays in one shared window, two flags";
  return "";
}

bool is_mpi_exchanger(std::string_view name) { return name.substr(0, 4) == "mpi-"; }

std::string unavailable_reason(std::string_view name, const RunContext& context) {
  if (name == "raw" && context.hosts() > 1)
    return "the ranks span " + std::to_string(context.hosts()) + " hosts, so not all of them share memory";
  return "";
}

std::unique_ptr<Exchanger> make_exchanger(std::string_view name, const ExchangerSetup& setup) {
  if (std::string why = unavailable_reason(name, setup.context); !why.empty())
    throw std::runtime_error("implementation " + std::string(name) + " cannot run here: " + why);
  if (name == "gw") return make_gw_exchanger(setup);
  if (name == "mpi-isend") return make_mpi_isend_exchanger(setup);
  if (name == "mpi-persistent") return make_mpi_persistent_exchanger(setup);
  if (name == "mpi-alltoallw") return make_mpi_alltoallw_exchanger(setup);
  if (name == "mpi-put") return make_mpi_put_exchanger(setup);
  if (name == "raw") return make_raw_exchanger(setup);
  throw std::runtime_error("unknown implementation " + std::string(name));
}

}  // namespace gwbench::halo
