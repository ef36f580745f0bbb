// SPDX-License-Identifier: BSD-3-Clause
#include "node_graph.hpp"

namespace gwpetsc {
namespace {

// Packing runs put peer p's units at area[p] of my area (my own units at the start of a private
// buffer); combining runs read a peer's units from the start of what it packed for me.
DirectionRuns runs_between(const Side& send, const Side& receive, int me) {
  DirectionRuns d;
  for (std::size_t p = 0; p < send.peers.size(); ++p) {
    auto runs = runs_of(send.index.data() + send.offset[p], 0, nullptr, send.area[p], send.units(p));
    d.send_runs.push_back(runs.size());
    d.pack.push_back(runs_pay(runs, send.units(p)) ? std::move(runs) : std::vector<Run>{});
  }
  for (std::size_t p = 0; p < receive.peers.size(); ++p) {
    auto runs = runs_of(nullptr, 0, receive.index.data() + receive.offset[p], 0, receive.units(p));
    d.combine.push_back(runs_pay(runs, receive.units(p)) ? std::move(runs) : std::vector<Run>{});
  }
  d.self_send = send.position_of(me);
  d.self_receive = receive.position_of(me);
  if (d.self_send >= 0 && d.self_receive >= 0) {
    const auto s = static_cast<std::size_t>(d.self_send), r = static_cast<std::size_t>(d.self_receive);
    d.self = runs_of(send.index.data() + send.offset[s], 0, receive.index.data() + receive.offset[r], 0, send.units(s));
  }
  return d;
}

}  // namespace

Side sending_side(const NodeGraph& g, Direction direction) {
  if (direction == Direction::bcast) return Side{g.leaf_ranks, g.ioffset, g.irootloc, g.iarea};
  return Side{g.root_ranks, g.roffset, g.rmine, g.rarea};
}

Side receiving_side(const NodeGraph& g, Direction direction) {
  return sending_side(g, direction == Direction::bcast ? Direction::reduce : Direction::bcast);
}

DirectionRuns runs_of_direction(const NodeGraph& g, Direction direction, int me) {
  return runs_between(sending_side(g, direction), receiving_side(g, direction), me);
}

}  // namespace gwpetsc
