// C API of the topology placement (topo.hpp, docs/topology.md): a communicator whose rank order
// puts neighbouring positions of a Cartesian process grid close in the machine.
#include <string>
#include <vector>

#include "c_api_support.hpp"
#include "ghostwire/ghostwire.h"
#include "ghostwire/topo.hpp"

using namespace ghostwire;
using ghostwire::capi::guarded;
using ghostwire::capi::require;

extern "C" {

int gw_topo_cart_comm(MPI_Comm comm, int dimensions, const int* extents, const int* periodic, const int* local,
                      int element_bytes, const char* method, MPI_Comm* reordered, int* position) {
  return guarded([&] {
    require(extents, "extents");
    require(local, "local");
    require(reordered, "reordered");
    if (dimensions < 1 || dimensions > 3)
      raise(Errc::invalid_argument, "dimensions " + std::to_string(dimensions) + ": a process grid has 1 to 3");
    const auto n = static_cast<std::size_t>(dimensions);
    std::vector<int> grid_extents(extents, extents + n), cells(local, local + n);
    std::vector<bool> wrap(n, false);
    for (std::size_t d = 0; d < n && periodic; ++d) wrap[d] = periodic[d] != 0;
    int ranks = 0, rank = 0;
    MPI_Comm_size(comm, &ranks);
    MPI_Comm_rank(comm, &rank);
    const topo::CartGrid grid = topo::CartGrid::make(grid_extents, wrap, cells, element_bytes);
    if (grid.size() != ranks)
      raise(Errc::invalid_argument, "extents: the process grid has " + std::to_string(grid.size()) +
                                        " positions but the communicator has " + std::to_string(ranks) + " ranks");
    const topo::Method chosen = method ? topo::method_from_name(method) : topo::Method::hierarchical;
    const topo::Topology topology = topo::detect(comm);  // collective
    const topo::Assignment rank_of = topo::map(chosen, grid, topology);
    int mine = -1;
    for (int p = 0; p < static_cast<int>(rank_of.size()); ++p)
      if (rank_of[static_cast<std::size_t>(p)] == rank) mine = p;
    if (mine < 0) raise(Errc::internal, "gw_topo_cart_comm: the mapping gives this rank no position");
    if (position) *position = mine;
    MPI_Comm_split(comm, 0, mine, reordered);
  });
}

int gw_topo_cart_comm_fortran(MPI_Fint comm, int dimensions, const int* extents, const int* periodic, const int* local,
                              int element_bytes, const char* method, MPI_Fint* reordered, int* position) {
  MPI_Comm made = MPI_COMM_NULL;
  const int code =
      gw_topo_cart_comm(MPI_Comm_f2c(comm), dimensions, extents, periodic, local, element_bytes, method, &made, position);
  if (code == GW_SUCCESS && reordered) *reordered = MPI_Comm_c2f(made);
  return code;
}

}  // extern "C"
