// SPDX-License-Identifier: BSD-3-Clause
// Mapping a weighted graph onto the machine with Scotch: the machine as a tree-leaf architecture
// (SCOTCH_archTleaf, one level per hierarchy level, links dearer the higher they are), the
// allocation as its sub-architecture (SCOTCH_archSub), then SCOTCH_graphMap. Scotch balances
// loads only approximately, so ranks given two vertices pass the extra ones to the nearest free
// rank in the hierarchy: the result is a permutation.
#include <algorithm>
#include <cstdio>
#include <map>

#include "ghostwire/error.hpp"
#include "ghostwire/topo.hpp"

#ifdef GHOSTWIRE_HAVE_SCOTCH
#include <cstdint>
#include <scotch.h>
#endif

namespace ghostwire::topo {

#ifdef GHOSTWIRE_HAVE_SCOTCH
namespace {

void check(int status, const char* call) {
  if (status != 0) raise(Errc::internal, std::string("Scotch: ") + call + " failed");
}

struct ScotchObjects {
  SCOTCH_Arch arch, sub;
  SCOTCH_Graph graph, bound;
  SCOTCH_Strat strat;
  SCOTCH_Context context;
  bool arch_ok = false, sub_ok = false, graph_ok = false, strat_ok = false, context_ok = false, bound_ok = false;
  ~ScotchObjects() {
    if (bound_ok) SCOTCH_graphExit(&bound);
    if (context_ok) SCOTCH_contextExit(&context);
    if (strat_ok) SCOTCH_stratExit(&strat);
    if (graph_ok) SCOTCH_graphExit(&graph);
    if (sub_ok) SCOTCH_archExit(&sub);
    if (arch_ok) SCOTCH_archExit(&arch);
  }
};

}  // namespace

namespace {

// The machine as Scotch's tree-leaf architecture: the leaves of the smallest complete tree holding
// the allocation (ranks on one leaf get an extra level so that every rank is its own terminal), and
// each rank's terminal.
struct MachineTree {
  std::vector<SCOTCH_Num> sizes, links, terminals;
};

MachineTree machine_tree(const Topology& topology) {
  MachineTree tree;
  for (int a : topology.arities()) tree.sizes.push_back(a);
  std::vector<std::int64_t> leaves = topology.leaf_numbers();
  std::map<std::int64_t, int> seen;
  int extra = 1;
  std::vector<int> occurrence(leaves.size());
  for (std::size_t r = 0; r < leaves.size(); ++r) {
    occurrence[r] = seen[leaves[r]]++;
    extra = std::max(extra, occurrence[r] + 1);
  }
  if (extra > 1) {
    tree.sizes.push_back(extra);
    for (std::size_t r = 0; r < leaves.size(); ++r) leaves[r] = leaves[r] * extra + occurrence[r];
  }
  std::int64_t total = 1;
  for (auto s : tree.sizes) total *= s;
  if (total > 100000000) raise(Errc::unsupported, "map_graph: the machine's tree has too many leaves for Scotch");
  // Link costs: every network level a factor 2 dearer than the one below it, the node's network
  // link 16 times a core-to-core link.
  const int levels = static_cast<int>(tree.sizes.size());
  const int node_level = topology.node_level();
  for (int l = 0; l < levels; ++l) tree.links.push_back(l <= node_level ? 16 << (node_level - l) : std::max(1, levels - l - 1));
  tree.terminals.assign(leaves.begin(), leaves.end());
  return tree;
}

// Scotch's mapping of the graph's vertices onto the tree's terminals (one thread, fixed seed: the
// same mapping on every run).
std::vector<SCOTCH_Num> scotch_parts(const Graph& graph, MachineTree& tree) {
  const int n = graph.vertices();
  // Weights scaled to at most 2^20 so sums stay within SCOTCH_Num.
  std::int64_t heaviest = 1;
  for (auto w : graph.weights) heaviest = std::max(heaviest, w);
  const std::int64_t scale = std::max<std::int64_t>(1, heaviest >> 20);
  std::vector<SCOTCH_Num> vert(graph.offsets.begin(), graph.offsets.end()), edges(graph.targets.begin(), graph.targets.end()),
      weights;
  for (auto w : graph.weights) weights.push_back(static_cast<SCOTCH_Num>(std::max<std::int64_t>(1, w / scale)));
  std::vector<SCOTCH_Num> part(static_cast<std::size_t>(n), -1);
  ScotchObjects s;
  check(SCOTCH_archInit(&s.arch), "archInit");
  s.arch_ok = true;
  check(SCOTCH_archTleaf(&s.arch, static_cast<SCOTCH_Num>(tree.sizes.size()), tree.sizes.data(), tree.links.data()),
        "archTleaf");
  check(SCOTCH_archInit(&s.sub), "archInit");
  s.sub_ok = true;
  check(SCOTCH_archSub(&s.sub, &s.arch, n, tree.terminals.data()), "archSub");
  check(SCOTCH_graphInit(&s.graph), "graphInit");
  s.graph_ok = true;
  check(SCOTCH_graphBuild(&s.graph, 0, n, vert.data(), nullptr, nullptr, nullptr, static_cast<SCOTCH_Num>(edges.size()),
                          edges.data(), weights.data()),
        "graphBuild");
  check(SCOTCH_stratInit(&s.strat), "stratInit");
  s.strat_ok = true;
  check(SCOTCH_stratGraphMapBuild(&s.strat, SCOTCH_STRATBALANCE, n, 0.0), "stratGraphMapBuild");
  // Scotch's default thread pool crashed now and then inside graphMap on large grids.
  check(SCOTCH_contextInit(&s.context), "contextInit");
  s.context_ok = true;
  check(SCOTCH_contextOptionSetNum(&s.context, SCOTCH_OPTIONNUMDETERMINISTIC, 1), "contextOptionSetNum");
  check(SCOTCH_contextOptionSetNum(&s.context, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1), "contextOptionSetNum");
  check(SCOTCH_contextRandomClone(&s.context), "contextRandomClone");
  check(SCOTCH_contextThreadSpawn(&s.context, 1, nullptr), "contextThreadSpawn");
  check(SCOTCH_graphInit(&s.bound), "graphInit");
  s.bound_ok = true;
  check(SCOTCH_contextBindGraph(&s.context, &s.graph, &s.bound), "contextBindGraph");
  check(SCOTCH_graphMap(&s.bound, &s.sub, &s.strat, part.data()), "graphMap");
  return part;
}

// Terminal i of the sub-architecture is rank i. Repair: first come keeps a rank, the others move
// to the free rank sharing the deepest level with the one Scotch chose.
Assignment repair(const std::vector<SCOTCH_Num>& part, const Topology& topology) {
  const int n = static_cast<int>(part.size());
  Assignment rank_of(static_cast<std::size_t>(n), -1);
  std::vector<char> taken(static_cast<std::size_t>(n), 0);
  std::vector<int> homeless;
  for (int v = 0; v < n; ++v) {
    const SCOTCH_Num p = part[static_cast<std::size_t>(v)];
    if (p >= 0 && p < n && !taken[static_cast<std::size_t>(p)]) {
      taken[static_cast<std::size_t>(p)] = 1;
      rank_of[static_cast<std::size_t>(v)] = static_cast<int>(p);
    } else {
      homeless.push_back(v);
    }
  }
  std::vector<int> free_ranks;
  for (int r = 0; r < n; ++r)
    if (!taken[static_cast<std::size_t>(r)]) free_ranks.push_back(r);
  for (int v : homeless) {
    const SCOTCH_Num wanted = part[static_cast<std::size_t>(v)];
    std::size_t best = 0;
    if (wanted >= 0 && wanted < n) {
      int depth = -1;
      for (std::size_t i = 0; i < free_ranks.size(); ++i) {
        const int d = topology.first_difference(static_cast<int>(wanted), free_ranks[i]);
        if (d > depth) {
          depth = d;
          best = i;
        }
      }
    }
    rank_of[static_cast<std::size_t>(v)] = free_ranks[best];
    free_ranks.erase(free_ranks.begin() + static_cast<std::ptrdiff_t>(best));
  }
  return rank_of;
}

}  // namespace

Assignment map_graph(const Graph& graph, const Topology& topology) {
  const int n = graph.vertices();
  if (n != topology.ranks())
    raise(Errc::invalid_argument, "map_graph: the graph has " + std::to_string(n) + " vertices but the machine " +
                                      std::to_string(topology.ranks()) + " ranks");
  if (n == 1) return {0};
  MachineTree tree = machine_tree(topology);
  return repair(scotch_parts(graph, tree), topology);
}
#else
Assignment map_graph(const Graph&, const Topology&) {
  raise(Errc::unsupported, "map_graph: ghostwire was built without Scotch (Debian: libscotch-dev)");
}
#endif

Assignment map_scotch(const CartGrid& grid, const Topology& topology) {
  if (grid.size() != topology.ranks())
    raise(Errc::invalid_argument, "scotch: the grid has " + std::to_string(grid.size()) + " positions but the machine " +
                                      std::to_string(topology.ranks()) + " ranks");
  return map_graph(Graph::of(grid), topology);
}

}  // namespace ghostwire::topo
