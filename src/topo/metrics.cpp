// SPDX-License-Identifier: BSD-3-Clause
// What a mapping costs: neighbour edges and halo bytes crossing each level, and a LogGP-like model
// of one exchange's time.
#include <algorithm>
#include <map>

#include "ghostwire/error.hpp"
#include "ghostwire/topo.hpp"

namespace ghostwire::topo {
namespace {

LevelCost cost_of(const std::string& level) {
  // latency s, bandwidth B/s of one message, uplink B/s shared by the vertex's traffic out.
  // Inside a node: shared-memory copies. Node and above: Cray XC (Aries) and InfiniBand EDR
  // figures rounded: ~1.3-2 us, 8-10 GB/s per node, routers and switches with more links up.
  static const std::map<std::string, LevelCost> table = {
      {"core", {0.3e-6, 8e9, 0}},          {"l3", {0.35e-6, 7e9, 0}},
      {"numa", {0.45e-6, 6e9, 0}},         {"package", {0.5e-6, 5e9, 0}},
      {"node", {1.3e-6, 8e9, 10e9}},       {"host", {1.3e-6, 8e9, 10e9}},
      {"blade", {1.4e-6, 8e9, 30e9}},      {"chassis", {1.5e-6, 6e9, 60e9}},
      {"cabinet", {1.6e-6, 5e9, 90e9}},    {"switch", {1.5e-6, 8e9, 50e9}},
      {"group", {1.8e-6, 4e9, 100e9}},
  };
  auto it = table.find(level);
  return it != table.end() ? it->second : table.at("group");
}

// The per-message cost a node's network interface adds to the traffic through it (LogGP's gap).
// Higher levels aggregate many links, so only their bandwidth is shared.
constexpr double nic_gap_s = 0.4e-6;

struct Accumulator {
  const Topology& topology;
  const std::vector<LevelCost>& costs;
  const Assignment& rank_of;
  std::vector<std::vector<int>> vertex;   // [level][rank] dense vertex id of the rank's subtree
  std::vector<std::vector<double>> uplink;  // [level][vertex] seconds of traffic out
  std::vector<double> rank_time;
  std::vector<std::int64_t> node_bytes;
  Evaluation e;

  Accumulator(const Topology& t, const std::vector<LevelCost>& c, const Assignment& a)
      : topology(t), costs(c), rank_of(a), rank_time(static_cast<std::size_t>(t.ranks()), 0.0),
        node_bytes(static_cast<std::size_t>(t.node_count()), 0) {
    if (static_cast<int>(c.size()) != t.level_count())
      raise(Errc::invalid_argument, "evaluate: " + std::to_string(c.size()) + " level costs for " +
                                        std::to_string(t.level_count()) + " levels");
    if (!is_permutation(a, t.ranks())) raise(Errc::invalid_argument, "evaluate: the assignment is not a permutation of the ranks");
    for (int l = 0; l <= t.node_level(); ++l) {
      std::map<std::vector<int>, int> ids;
      std::vector<int> v;
      for (int r = 0; r < t.ranks(); ++r) {
        const auto& p = t.path(r);
        v.push_back(ids.emplace(std::vector<int>(p.begin(), p.begin() + l + 1), static_cast<int>(ids.size())).first->second);
      }
      uplink.emplace_back(ids.size(), 0.0);
      vertex.push_back(std::move(v));
    }
    e.ranks = t.ranks();
    e.nodes = t.node_count();
    for (const auto& name : t.levels()) e.crossing.push_back({name, 0, 0});
  }

  // Positions a and b exchange `bytes` each way.
  void edge(int a, int b, std::int64_t bytes) {
    const int ra = rank_of[static_cast<std::size_t>(a)], rb = rank_of[static_cast<std::size_t>(b)];
    const int f = topology.first_difference(ra, rb);
    ++e.edges;
    e.bytes += 2 * bytes;
    for (int l = f; l < topology.level_count(); ++l) {
      ++e.crossing[static_cast<std::size_t>(l)].edges;
      e.crossing[static_cast<std::size_t>(l)].bytes += 2 * bytes;
    }
    if (f >= topology.level_count()) return;  // same leaf (oversubscribed core): a local copy
    const LevelCost& c = costs[static_cast<std::size_t>(f)];
    const double message = c.latency_s + static_cast<double>(bytes) / c.bandwidth_Bps;
    rank_time[static_cast<std::size_t>(ra)] += message;
    rank_time[static_cast<std::size_t>(rb)] += message;
    for (int l = f; l <= topology.node_level(); ++l) {
      const double bw = costs[static_cast<std::size_t>(l)].uplink_Bps;
      if (bw <= 0) continue;
      const double t = (l == topology.node_level() ? nic_gap_s : 0.0) + static_cast<double>(bytes) / bw;
      uplink[static_cast<std::size_t>(l)][static_cast<std::size_t>(vertex[static_cast<std::size_t>(l)][static_cast<std::size_t>(ra)])] += t;
      uplink[static_cast<std::size_t>(l)][static_cast<std::size_t>(vertex[static_cast<std::size_t>(l)][static_cast<std::size_t>(rb)])] += t;
    }
    if (f <= topology.node_level()) {
      node_bytes[static_cast<std::size_t>(topology.node_of(ra))] += bytes;
      node_bytes[static_cast<std::size_t>(topology.node_of(rb))] += bytes;
    }
  }

  Evaluation finish() {
    e.internode_edges = e.crossing[static_cast<std::size_t>(topology.node_level())].edges;
    e.internode_bytes = e.crossing[static_cast<std::size_t>(topology.node_level())].bytes;
    e.max_node_bytes = node_bytes.empty() ? 0 : *std::max_element(node_bytes.begin(), node_bytes.end());
    double t = rank_time.empty() ? 0 : *std::max_element(rank_time.begin(), rank_time.end());
    for (const auto& level : uplink)
      for (double u : level) t = std::max(t, u);
    e.model_time_s = t;
    return e;
  }
};

}  // namespace

std::vector<LevelCost> default_costs(const Topology& topology) {
  std::vector<LevelCost> costs;
  for (int l = 0; l < topology.level_count(); ++l) {
    LevelCost c = cost_of(topology.levels()[static_cast<std::size_t>(l)]);
    if (l > topology.node_level()) c.uplink_Bps = 0;
    // A level named like a node-internal one but above the node (unusual files) costs like a group.
    if (l <= topology.node_level() && c.uplink_Bps == 0) c = cost_of("group");
    costs.push_back(c);
  }
  // The node level is always the network interface, whatever the file calls it.
  LevelCost& node = costs[static_cast<std::size_t>(topology.node_level())];
  node.uplink_Bps = cost_of("node").uplink_Bps;
  return costs;
}

Evaluation evaluate(const CartGrid& grid, const Topology& topology, const Assignment& rank_of,
                    const std::vector<LevelCost>& costs) {
  if (grid.size() != topology.ranks())
    raise(Errc::invalid_argument, "evaluate: the grid has " + std::to_string(grid.size()) + " positions but the machine " +
                                      std::to_string(topology.ranks()) + " ranks");
  Accumulator acc(topology, costs, rank_of);
  const int n = grid.size();
  for (int p = 0; p < n; ++p) {
    std::vector<int> c = grid.coords(p);
    for (int d = 0; d < grid.dimensions(); ++d) {
      const int e = grid.extents[static_cast<std::size_t>(d)];
      std::vector<int> q = c;
      if (++q[static_cast<std::size_t>(d)] == e) {
        if (!grid.periodic[static_cast<std::size_t>(d)]) continue;
        q[static_cast<std::size_t>(d)] = 0;
      }
      const int other = grid.position(q);
      if (other != p) acc.edge(p, other, grid.face_bytes[static_cast<std::size_t>(d)]);
    }
  }
  return acc.finish();
}

Evaluation evaluate(const Graph& graph, const Topology& topology, const Assignment& rank_of,
                    const std::vector<LevelCost>& costs) {
  Accumulator acc(topology, costs, rank_of);
  for (int v = 0; v < graph.vertices(); ++v)
    for (int i = graph.offsets[static_cast<std::size_t>(v)]; i < graph.offsets[static_cast<std::size_t>(v) + 1]; ++i) {
      const int w = graph.targets[static_cast<std::size_t>(i)];
      if (w > v) acc.edge(v, w, graph.weights[static_cast<std::size_t>(i)]);
    }
  return acc.finish();
}

}  // namespace ghostwire::topo
