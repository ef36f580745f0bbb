// SPDX-License-Identifier: BSD-3-Clause
// The names of the halo implementations and their one-line summaries: apart from the factories
// (exchanger_registry.cpp), so the option parser links without any implementation.
#include "../named_summaries.hpp"
#include "exchanger.hpp"

namespace gwbench::halo {
namespace {

// In the order --help lists them.
const NamedSummary exchangers[] = {
    {"gw", "ghostwire Plan built once, plan.exchange() (arrays in a Segment, read in place)"},
    {"mpi-isend", "MPI_Irecv / MPI_Isend + MPI_Waitall, hand-written pack and unpack"},
    {"mpi-persistent", "MPI_Recv_init / MPI_Send_init once; pack, MPI_Startall, MPI_Waitall, unpack"},
    {"mpi-alltoallw", "MPI_Neighbor_alltoallw, derived datatypes on the array, no packing"},
    {"mpi-put", "pack, MPI_Put into the neighbours' receive buffers between MPI_Win_fence, unpack"},
    {"raw", "the floor: copy straight from the neighbours' arrays in one shared window, two flags"},
};

}  // namespace

const std::vector<std::string>& exchanger_names() {
  static const std::vector<std::string> names = names_of(exchangers);
  return names;
}

std::string_view exchanger_summary(std::string_view name) { return summary_of(exchangers, name); }

bool is_mpi_exchanger(std::string_view name) { return name.substr(0, 4) == "mpi-"; }

std::string_view reverse_unsupported_reason(std::string_view name) {
  (void)name;  // every implementation has one
  return "";
}

}  // namespace gwbench::halo
