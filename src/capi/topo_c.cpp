// C API of topology-aware placement: a Cartesian process grid placed on the machine, and a
// communicator reordered by position.
#include <vector>

#include "c_api_support.hpp"
#include "ghostwire/dist/team_spec.hpp"
#include "ghostwire/error.hpp"
#include "ghostwire/ghostwire.h"
#include "ghostwire/topo.hpp"
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
    int size = 0;
    MPI_Comm_size(comm, &size);
    *reordered = topo::reordered_comm(comm, topo::Assignment(rank_of_position, rank_of_position + size));
  });
}

}  // extern "C"
