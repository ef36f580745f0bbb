// The names of the halo implementations and their one-line summaries: apart from the factories
// (exchanger_registry.cpp), so the option parser links without any implementation.
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

}  // namespace gwbench::halo
