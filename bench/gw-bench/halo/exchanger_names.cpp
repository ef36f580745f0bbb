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
    {"gw-node", "gw with one message per pair of nodes: Plan::aggregate(Aggregation::node) (grid cases; only when named)"},
    {"gw-off", "gw with every message between nodes its own: Plan::aggregate(Aggregation::off) (grid cases; only when named)"},
    {"gw-private", "gw on the array in private memory (std::vector), as a port from MPI has it (only when named)"},
    {"mpi-isend", "MPI_Irecv / MPI_Isend + MPI_Waitall, hand-written pack and unpack"},
    {"mpi-persistent", "MPI_Recv_init / MPI_Send_init once; pack, MPI_Startall, MPI_Waitall, unpack"},
    {"mpi-alltoallw", "MPI_Neighbor_alltoallw, derived datatypes on the array, no packing"},
    {"mpi-put", "pack, MPI_Put into the neighbours' receive buffers between MPI_Win_fence, unpack"},
    {"petsc-basic", "PETSc's PetscSF, type basic: PetscSFBcast of the owned values into the ghosts (PETSc builds only)"},
    {"petsc-neighbor", "PetscSF type neighbor (MPI neighbourhood collectives), the same Bcast"},
    {"petsc-window", "PetscSF type window (MPI one-sided, PETSc's default sync), the same Bcast"},
    {"petsc-ghostwire", "PetscSF type ghostwire (libghostwire_petsc.so, loaded as -dll_append loads it), the same Bcast: "
                        "ghostwire's own PETSc type, not a peer (only when named)"},
    {"ga", "Global Arrays: GA_Update_ghosts on a ghosted global array (grid cases; periodic, with corners)"},
    {"raw", "the floor: copy straight from the neighbours' arrays in one shared window, two flags"},
};

}  // namespace

const std::vector<std::string>& exchanger_names() {
  static const std::vector<std::string> names = names_of(exchangers);
  return names;
}

std::string_view exchanger_summary(std::string_view name) { return summary_of(exchangers, name); }

bool only_when_named(std::string_view name) {
  return name == "gw-node" || name == "gw-off" || name == "gw-private" || name == "petsc-ghostwire";
}

bool is_mpi_exchanger(std::string_view name) { return name.substr(0, 4) == "mpi-"; }

// petsc-ghostwire is ghostwire itself behind PETSc's interface: never a peer to beat.
bool is_peer_exchanger(std::string_view name) {
  return (name.substr(0, 6) == "petsc-" && name != "petsc-ghostwire") || name == "ga";
}

std::string_view reverse_unsupported_reason(std::string_view name) {
  if (name == "ga") return "Global Arrays has no reverse ghost update: GA_Update_ghosts only copies owners' values";
  // Found by the reverse check: sums of the unstructured case come out short from the first
  // exchange on, with every sync (fence, lock, active) and osc component; flavor shared is right.
  if (name == "petsc-window")
    return "PETSc 3.18's window type (flavor create, its default) loses contributions of the unstructured case's "
           "PetscSFReduce (docs/benchmarks-howto.md, the implementations of gw-bench halo)";
  return "";
}

std::string_view case_unsupported_reason(std::string_view name, const HaloCase& c) {
  if (name == "ga" && c.grid.dimensions == 0) return "a global array is a grid: ga runs on the grid cases only";
  if ((name == "gw-node" || name == "gw-off") && c.grid.dimensions == 0)
    return "make_unstructured_plan commits the plan itself: set GHOSTWIRE_AGGREGATE for gw instead";
  return "";
}

}  // namespace gwbench::halo
