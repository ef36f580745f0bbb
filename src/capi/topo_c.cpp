// SPDX-License-Identifier: BSD-3-Clause
// C API of topology-aware placement (topo.hpp, docs/topology.md): a Cartesian process grid placed
// on the machine, and communicators reordered by position. Calls on a gw_world_t use the World's
// settings; calls on a bare MPI_Comm read them from the environment (Settings::from_environment).
#include <string>
#include <vector>

#include "c_api_support.hpp"
#include "ghostwire/dist/team_spec.hpp"
#include "ghostwire/error.hpp"
#include "ghostwire/ghostwire.h"
#include "ghostwire/settings.hpp"
#include "ghostwire/topo.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime_handles.hpp"

using namespace ghostwire;
using ghostwire::capi::guarded;
using ghostwire::capi::require;

namespace {

Placement placement_of(int code) {
  switch (code) {
    case GW_PLACEMENT_AUTOMATIC: return Placement::automatic;
    case GW_PLACEMENT_RANK_ORDER: return Placement::rank_order;
    case GW_PLACEMENT_HIERARCHICAL: return Placement::hierarchical;
    default:
      raise(Errc::invalid_argument, "placement is " + std::to_string(code) +
                                        "; expected GW_PLACEMENT_AUTOMATIC (0), GW_PLACEMENT_RANK_ORDER (1) or "
                                        "GW_PLACEMENT_HIERARCHICAL (2)");
  }
}

}  // namespace

extern "C" {

int gw_topo_place_cartesian(gw_world_t w, int placement, int ndims, const int* dims, const int* periodic,
                            const int64_t* block, int* rank_of_position) {
  return guarded([&] {
    require(w, "world");
    require(dims, "dims");
    require(periodic, "periodic");
    require(rank_of_position, "rank_of_position");
    if (ndims < 1 || ndims > 3)
      raise(Errc::invalid_argument, "ndims is " + std::to_string(ndims) + "; expected 1 to 3");
    // The grid's positions are the world's ranks: say so in the caller's terms (dims), not the
    // team's that place_team would report.
    long long positions = 1;
    std::string shape;
    for (int d = 0; d < ndims; ++d) {
      if (dims[d] < 1)
        raise(Errc::invalid_argument, "dims[" + std::to_string(d) + "] is " + std::to_string(dims[d]) + "; expected >= 1");
      positions *= dims[d];
      shape += (d ? " x " : "") + std::to_string(dims[d]);
    }
    if (positions != w->world.size())
      raise(Errc::invalid_argument, "dims " + shape + " give " + std::to_string(positions) +
                                        " positions but the world has " + std::to_string(w->world.size()) +
                                        " ranks; expected one position per rank");
    bool wraps[3] = {false, false, false};
    Index cells[3] = {0, 0, 0};
    for (int d = 0; d < ndims; ++d) {
      wraps[d] = periodic[d] != 0;
      cells[d] = block ? block[d] : 0;
    }
    const std::vector<int> rank_of = detail::place_team(w->world, ndims, dims, wraps, cells, placement_of(placement));
    std::copy(rank_of.begin(), rank_of.end(), rank_of_position);
  });
}

int gw_topo_map_cartesian(gw_world_t world, int ndims, const int* dims, const int* periodic, int* rank_of_position) {
  return gw_topo_place_cartesian(world, GW_PLACEMENT_HIERARCHICAL, ndims, dims, periodic, nullptr, rank_of_position);
}

int gw_topo_reordered_comm(MPI_Comm comm, const int* rank_of_position, MPI_Comm* reordered) {
  return guarded([&] {
    require(rank_of_position, "rank_of_position");
    require(reordered, "reordered");
    ghostwire::detail::require_mpi_running("gw_topo_reordered_comm");
    int size = 0;
    ghostwire::detail::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
    *reordered = topo::reordered_comm(comm, topo::Assignment(rank_of_position, rank_of_position + size));
  });
}


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
    ghostwire::detail::require_mpi_running("gw_topo_cart_comm");
    int ranks = 0, rank = 0;
    ghostwire::detail::check_mpi(MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
    ghostwire::detail::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
    const topo::CartGrid grid = topo::CartGrid::make(grid_extents, wrap, cells, element_bytes);
    if (grid.size() != ranks)
      raise(Errc::invalid_argument, "extents: the process grid has " + std::to_string(grid.size()) +
                                        " positions but the communicator has " + std::to_string(ranks) + " ranks");
    const topo::Method chosen = method ? topo::method_from_name(method) : topo::Method::hierarchical;
    // No World here: the environment's settings, as a World made now would read them (timeout too).
    const topo::Topology topology = topo::detect(comm, Settings::from_environment());  // collective
    const topo::Assignment rank_of = topo::map(chosen, grid, topology);
    int mine = -1;
    for (int p = 0; p < static_cast<int>(rank_of.size()); ++p)
      if (rank_of[static_cast<std::size_t>(p)] == rank) mine = p;
    if (mine < 0) raise(Errc::internal, "gw_topo_cart_comm: the mapping gives this rank no position");
    if (position) *position = mine;
    ghostwire::detail::check_mpi(MPI_Comm_split(comm, 0, mine, reordered), "MPI_Comm_split");
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
