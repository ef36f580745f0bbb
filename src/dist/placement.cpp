// SPDX-License-Identifier: BSD-3-Clause
// Placement of a TeamSpec on the machine (docs/topology.md, "Placing grids, patterns and
// applications"): the team as a topo::CartGrid, mapped hierarchically onto the hierarchy detected
// with the World's settings (src/topo). dist uses topo here; topo never uses dist.
#include <algorithm>
#include <numeric>
#include <vector>

#include "ghostwire/dist/team_spec.hpp"
#include "ghostwire/error.hpp"
#include "ghostwire/topo.hpp"
#include "ghostwire/world.hpp"

namespace ghostwire::detail {

bool topology_known(const World& world) {
  return !world.settings().topology_file.empty() || world.node_count() > 1;
}

std::vector<int> place_team(World& world, int dimensions, const int* team, const bool* periodic, const Index* block,
                            Placement placement) {
  check_team(dimensions, team, "TeamSpec::placed");
  int size = 1;
  for (int d = 0; d < dimensions; ++d) size *= team[d];
  if (size != world.size())
    raise(Errc::invalid_argument, "TeamSpec::placed: the team has " + std::to_string(size) +
                                      " ranks but the world has " + std::to_string(world.size()) +
                                      "; expected a team of world.size() ranks");
  std::vector<int> identity(static_cast<std::size_t>(size));
  std::iota(identity.begin(), identity.end(), 0);
  if (placement == Placement::automatic)  // the same answer on every rank: node_count and the settings agree
    placement = topology_known(world) ? Placement::hierarchical : Placement::rank_order;
  if (placement == Placement::rank_order || size == 1) return identity;
  // CartGrid handles 1 to 3 dimensions; drop the dimensions of extent 1 (they cut nothing).
  std::vector<int> extents, local;
  std::vector<bool> wraps;
  for (int d = 0; d < dimensions; ++d)
    if (team[d] > 1) {
      extents.push_back(team[d]);
      wraps.push_back(periodic[d]);
      local.push_back(static_cast<int>(std::max<Index>(block[d], 1)));
    }
  if (extents.size() > 3) return identity;  // no mapping for 4-D and more process grids
  const topo::Topology topology = topo::detect(world);
  // Blocks of the same size in every dimension when the caller did not say.
  bool sized = false;
  for (int l : local) sized |= l > 1;
  if (!sized) std::fill(local.begin(), local.end(), 16);
  const topo::CartGrid grid = topo::CartGrid::make(extents, wraps, local);
  // Positions of the reduced grid are the team's positions: dropping extent-1 dimensions keeps
  // row-major numbering.
  return topo::map_hierarchical(grid, topology);
}

}  // namespace ghostwire::detail
