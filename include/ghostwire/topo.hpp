// SPDX-License-Identifier: BSD-3-Clause
// Topology-aware rank mapping (docs/topology.md): where ranks run in the machine hierarchy, and
// which position of a Cartesian process grid each rank should compute so that neighbouring
// positions share the deepest possible level (core, package, node, blade, chassis, group).
//
//   Topology   the ranks of a job as paths through the machine's levels, outermost first
//   CartGrid   a 2-D or 3-D process grid: extents, periodicity, halo bytes per face
//   map(...)   an assignment grid position -> rank by one of several methods
//   evaluate   edges and halo bytes crossing each level, and a modelled exchange time
//
// Everything except detect() and the reordering functions is pure computation: it does not talk to
// other ranks. What these read of the machine comes from the World's Settings (docs/topology.md).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <istream>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ghostwire {
class World;
struct Settings;
}

namespace ghostwire::topo {

// The ranks of a job and where each runs: path(rank)[l] is the rank's index at level l (outermost
// first, e.g. group, cabinet, chassis, blade, node, package, numa, l3, core). Two ranks share level
// l when their paths agree at levels 0..l. Levels up to node_level() are the network, the rest
// are inside a node.
class Topology {
 public:
  Topology() = default;
  // `paths` has one entry per rank, each with levels.size() values; `node_level` indexes `levels`.
  Topology(std::vector<std::string> levels, int node_level, std::vector<std::vector<int>> paths,
           std::vector<std::string> hosts = {});

  const std::vector<std::string>& levels() const noexcept { return levels_; }
  int level_count() const noexcept { return static_cast<int>(levels_.size()); }
  int level_index(std::string_view name) const noexcept;  // -1 when absent
  int node_level() const noexcept { return node_level_; }
  int ranks() const noexcept { return static_cast<int>(paths_.size()); }
  const std::vector<int>& path(int rank) const { return paths_.at(static_cast<std::size_t>(rank)); }
  // Host name of a rank (empty for synthetic machines).
  const std::string& host(int rank) const;
  // The outermost level at which the two ranks' paths differ; level_count() when they are equal.
  int first_difference(int a, int b) const noexcept;
  bool same_node(int a, int b) const noexcept { return first_difference(a, b) > node_level_; }
  // Nodes numbered 0.. in the order of their lowest rank.
  int node_of(int rank) const { return node_of_.at(static_cast<std::size_t>(rank)); }
  int node_count() const noexcept { return node_count_; }
  // Number of ranks on the most populated node, and whether every node has that many.
  int ranks_per_node() const noexcept { return ranks_per_node_; }
  bool uniform_nodes() const noexcept { return uniform_nodes_; }
  // Children per vertex at each level, the most any vertex of the allocation has (paths renumbered
  // densely inside their parent): the shape of the smallest complete tree holding the allocation.
  std::vector<int> arities() const;
  // The rank's position as a leaf of that complete tree (mixed radix of the renumbered path).
  std::vector<std::int64_t> leaf_numbers() const;
  // "group 0..3 > cabinet ... > core: 384 nodes, 9216 ranks", one line per level with counts.
  std::string describe() const;

 private:
  std::vector<std::string> levels_;
  int node_level_ = 0;
  std::vector<std::vector<int>> paths_;
  std::vector<std::string> hosts_;
  std::vector<int> node_of_;
  int node_count_ = 0;
  int ranks_per_node_ = 0;
  bool uniform_nodes_ = true;
};

// ---- machine description: topology file, hwloc, detection ----------------------------------

// A topology file (Settings::topology_file, GHOSTWIRE_TOPOLOGY=FILE): one line per host,
// "HOST PLACEMENT", '#' starts a comment. PLACEMENT is either Cray's xtprocadmin name,
// c<column>-<row>c<chassis>s<blade>n<node> (levels group = cabinet pair, cabinet, chassis, blade,
// node), or level=value,... with the same level names on every line (values are integers or
// names; a "node" level is added when absent, one per host).
class TopologyFile {
 public:
  static TopologyFile read(const std::string& path);
  // `name` is used in error messages: "FILE:LINE: ...".
  static TopologyFile parse(std::istream& in, const std::string& name);

  const std::vector<std::string>& levels() const noexcept { return levels_; }
  bool contains(const std::string& host) const { return hosts_.count(host) != 0; }
  // The host's path through levels(); throws naming the file when the host is not listed.
  const std::vector<int>& placement(const std::string& host) const;
  std::size_t size() const noexcept { return hosts_.size(); }
  const std::map<std::string, std::vector<int>>& hosts() const noexcept { return hosts_; }

 private:
  std::string name_;
  std::vector<std::string> levels_;
  std::map<std::string, std::vector<int>> hosts_;
};

// Cray's xtprocadmin name "c11-2c0s15n3" -> {group, cabinet in group, chassis, blade, node}
// = {row * 1000 + column / 2, column % 2, 0, 15, 3}. Throws with the reason when malformed.
std::vector<int> parse_cray_name(std::string_view text);

// The levels inside this node found by hwloc (package, numa, l3, core; a level is left out when
// hwloc does not report it) and the path of each core, in the order of hwloc's core indices.
struct NodeHierarchy {
  std::vector<std::string> levels;
  std::vector<std::vector<int>> core_paths;
  int cores() const noexcept { return static_cast<int>(core_paths.size()); }
};
NodeHierarchy detect_node();
// The core this process is bound to (hwloc's logical index), or -1 when it is not bound to one.
int bound_core();

// Collective over `world`: every rank's path. Across nodes from the settings' topology_file
// (GHOSTWIRE_TOPOLOGY; hosts not in the file are an error) or, without it, from host names alone
// (one level, node); with ranks_per_node = k (GHOSTWIRE_RANKS_PER_NODE) nodes are groups of k
// consecutive ranks, as in World. Inside a node from hwloc: the bound core, else the node rank
// modulo the cores. Its wait times out as the World's waits do (Settings::timeout_seconds).
Topology detect(World& world);
// The same over a communicator without a World, with `settings` in place of the World's.
Topology detect(MPI_Comm comm, const Settings& settings);
// The same with Settings::from_environment().
Topology detect(MPI_Comm comm);

// ---- synthetic machines for evaluation -------------------------------------------------------

// A Cray XC-like machine (groups of 2 cabinets x 3 chassis x 16 blades x 4 nodes, nodes of
// 2 packages) and an allocation of `nodes` nodes of `cores` ranks each, scattered in contiguous
// runs of 1 to 8 nodes (deterministic from `seed`), ranks in node-id order as a launcher places
// them (the DASH study's 384 nodes of 24 cores on a Cray XC40).
Topology cray_sparse(int nodes, int cores, std::uint64_t seed = 1);
// A 2-level fat tree: leaf switches of `nodes_per_switch` nodes under one spine, every node
// allocated, `cores` ranks per node (2 packages), ranks in node order.
Topology fat_tree(int nodes, int cores, int nodes_per_switch = 8);
// "cray-sparse:NODESxCORES[:SEED]", "fat-tree:NODESxCORES[:PER_SWITCH]", "file:PATH:CORES" (every
// host of the topology file, CORES ranks each, 2 packages) or "hosts:NODESxCORES" (host names only).
Topology make_machine(const std::string& spec);

// ---- process grids, mappings ------------------------------------------------------------------

// A Cartesian process grid, positions numbered row-major (last coordinate fastest). Each pair of
// neighbouring positions exchanges face_bytes[d] in each direction across dimension d.
struct CartGrid {
  std::vector<int> extents;
  std::vector<bool> periodic;
  std::vector<std::int64_t> face_bytes;

  // Local blocks of `local` cells (per dimension) of `element` bytes, halo `width`.
  static CartGrid make(std::vector<int> extents, std::vector<bool> periodic, const std::vector<int>& local,
                       int element = 8, int width = 1);
  // "3d:24,24,16" or "2d:96,96"; "3d:auto" spreads `ranks` like MPI_Dims_create. Periodic in
  // every dimension unless "open" is appended ("3d:24,24,16:open").
  static CartGrid parse(const std::string& spec, int ranks, const std::vector<int>& local, int element = 8);
  int dimensions() const noexcept { return static_cast<int>(extents.size()); }
  int size() const noexcept;
  std::vector<int> coords(int position) const;
  int position(const std::vector<int>& coords) const;
  std::string describe() const;
};

// rank_of[position]: the rank that computes each grid position; a permutation of 0..size-1.
using Assignment = std::vector<int>;

enum class Method {
  rank_order,     // position p on rank p: what a launcher and MPI_Cart_create give
  dims_blocking,  // node blocks shaped by MPI_Dims_create(ranks per node), nodes in rank order
  study,          // the DASH study's reordering: ranks sorted by placement, a space-filling curve
  scotch,         // Scotch's graph mapping onto the machine as a tree-leaf architecture
  hierarchical,   // ghostwire's: node blocks with the least surface, a space-filling order of blocks
};
const char* method_name(Method method) noexcept;
Method method_from_name(std::string_view name);  // throws naming the accepted names
const std::vector<Method>& all_methods();

Assignment map(Method method, const CartGrid& grid, const Topology& topology);
Assignment map_rank_order(const CartGrid& grid, const Topology& topology);
Assignment map_dims_blocking(const CartGrid& grid, const Topology& topology);
Assignment map_study(const CartGrid& grid, const Topology& topology);
Assignment map_scotch(const CartGrid& grid, const Topology& topology);
Assignment map_hierarchical(const CartGrid& grid, const Topology& topology);

// A weighted graph: vertices 0..n-1 (the parts of an unstructured mesh), adjacency in CSR form,
// weights = halo bytes between the two parts.
struct Graph {
  std::vector<int> offsets;  // n + 1
  std::vector<int> targets;
  std::vector<std::int64_t> weights;
  int vertices() const noexcept { return offsets.empty() ? 0 : static_cast<int>(offsets.size()) - 1; }
  static Graph of(const CartGrid& grid);
};
// vertex -> rank, a permutation: Scotch's mapping onto the topology's tree, then ranks that got two
// vertices hand one to the nearest free rank.
Assignment map_graph(const Graph& graph, const Topology& topology);

// ---- reordering a job for a graph (collective) ------------------------------------------------
//
//   auto reordered = topo::reordered(world, graph);   // rank v of *reordered computes part v
//
// Collective over `world` (graph.vertices() == world.size()): map_graph on the hierarchy detected
// with the World's settings, the same assignment on every rank.
Assignment map_graph(World& world, const Graph& graph);
// Collective over `comm`: a new communicator (free it with MPI_Comm_free) whose rank v is the
// process of rank rank_of[v] in `comm`.
MPI_Comm reordered_comm(MPI_Comm comm, const Assignment& rank_of);
// A World whose rank v is the process that should compute part v of `graph`, with `world`'s
// settings. Output and reductions in the new World's rank order are then in part order, whoever
// computes the parts.
std::unique_ptr<World> reordered(World& world, const Graph& graph);

// True when `assignment` is a permutation of 0..n-1.
bool is_permutation(const Assignment& assignment, int n);

// ---- metrics and model -------------------------------------------------------------------------

// Cost of a message whose endpoints first differ at a level, and the bandwidth out of one vertex
// of that level (a node's network interface, a blade's router, a group's global links).
struct LevelCost {
  double latency_s = 0;
  double bandwidth_Bps = 1;
  double uplink_Bps = 0;  // 0: not shared (levels inside a node)
};
// Per level of `topology`, by level name (group, cabinet, chassis, blade, switch, node, package,
// numa, l3, core; an unknown network level costs like a group). Values in docs/topology.md.
std::vector<LevelCost> default_costs(const Topology& topology);

struct LevelTraffic {
  std::string level;
  std::int64_t edges = 0;  // neighbour pairs in different vertices of this level
  std::int64_t bytes = 0;  // halo bytes between them, both directions
};
struct Evaluation {
  int ranks = 0, nodes = 0;
  std::int64_t edges = 0, bytes = 0;  // all neighbour pairs and all halo bytes
  std::vector<LevelTraffic> crossing;  // per level, outermost first
  std::int64_t internode_edges = 0, internode_bytes = 0;
  std::int64_t max_node_bytes = 0;  // the most any node sends to other nodes
  double model_time_s = 0;  // modelled time of one exchange
};
// Messages of one rank are sent one after another (latency + bytes / bandwidth of the level they
// cross); the bytes leaving a vertex of a network level share its uplink; the exchange takes the
// longest of all these.
Evaluation evaluate(const CartGrid& grid, const Topology& topology, const Assignment& rank_of,
                    const std::vector<LevelCost>& costs);
Evaluation evaluate(const Graph& graph, const Topology& topology, const Assignment& rank_of,
                    const std::vector<LevelCost>& costs);

}  // namespace ghostwire::topo
