// SPDX-License-Identifier: BSD-3-Clause
// Detecting the hierarchy of a running job (docs/topology.md, "On a real launch"): hwloc inside a
// node, the topology file or host names across nodes. What is read across nodes comes from the
// Settings (a World's, or those handed in), never from the environment directly.
#include <hwloc.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <memory>

#include "ghostwire/error.hpp"
#include "ghostwire/settings.hpp"
#include "ghostwire/topo.hpp"
#include "ghostwire/world.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/wait.hpp"

namespace ghostwire::topo {
namespace {

struct HwlocTopology {
  hwloc_topology_t handle = nullptr;
  HwlocTopology() {
    if (hwloc_topology_init(&handle) != 0 || hwloc_topology_load(handle) != 0)
      raise(Errc::internal, "hwloc: cannot load this machine's topology");
  }
  ~HwlocTopology() { hwloc_topology_destroy(handle); }
  HwlocTopology(const HwlocTopology&) = delete;
  HwlocTopology& operator=(const HwlocTopology&) = delete;
};

// The logical index of the ancestor of `core` of `type` (for NUMA: the first NUMA node attached at
// or above it), or -1.
int ancestor_index(hwloc_topology_t topology, hwloc_obj_t core, hwloc_obj_type_t type) {
  if (type == HWLOC_OBJ_NUMANODE) {
    hwloc_obj_t numa = hwloc_get_next_obj_covering_cpuset_by_type(topology, core->cpuset, HWLOC_OBJ_NUMANODE, nullptr);
    return numa ? static_cast<int>(numa->logical_index) : -1;
  }
  hwloc_obj_t up = hwloc_get_ancestor_obj_by_type(topology, type, core);
  return up ? static_cast<int>(up->logical_index) : -1;
}

std::string this_host() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

}  // namespace

namespace {

NodeHierarchy load_node_hierarchy() {
  HwlocTopology hw;
  const int cores = hwloc_get_nbobjs_by_type(hw.handle, HWLOC_OBJ_CORE);
  struct Candidate {
    const char* name;
    hwloc_obj_type_t type;
  };
  const Candidate candidates[] = {{"package", HWLOC_OBJ_PACKAGE}, {"numa", HWLOC_OBJ_NUMANODE}, {"l3", HWLOC_OBJ_L3CACHE}};
  NodeHierarchy node;
  std::vector<std::vector<int>> columns;
  for (const auto& c : candidates) {
    std::vector<int> column;
    bool present = true;
    for (int i = 0; i < cores && present; ++i) {
      const int index = ancestor_index(hw.handle, hwloc_get_obj_by_type(hw.handle, HWLOC_OBJ_CORE, static_cast<unsigned>(i)), c.type);
      present = index >= 0;
      column.push_back(index);
    }
    if (!present) continue;
    node.levels.push_back(c.name);
    columns.push_back(std::move(column));
  }
  node.levels.push_back("core");
  for (int i = 0; i < std::max(cores, 1); ++i) {
    std::vector<int> path;
    for (const auto& column : columns) path.push_back(column.empty() ? 0 : column[static_cast<std::size_t>(i)]);
    path.push_back(i);
    node.core_paths.push_back(std::move(path));
  }
  return node;
}

}  // namespace

// Loading hwloc's topology takes milliseconds, and every placed Grid detects the machine: once per
// process is enough (the node does not change under a running job).
NodeHierarchy detect_node() {
  static const NodeHierarchy node = load_node_hierarchy();
  return node;
}

int bound_core() {
  HwlocTopology hw;
  std::unique_ptr<hwloc_bitmap_s, void (*)(hwloc_bitmap_t)> set(hwloc_bitmap_alloc(), hwloc_bitmap_free);
  if (hwloc_get_cpubind(hw.handle, set.get(), HWLOC_CPUBIND_PROCESS) != 0) return -1;
  // Bound to one core when the set lies inside one core object.
  hwloc_obj_t core = hwloc_get_next_obj_covering_cpuset_by_type(hw.handle, set.get(), HWLOC_OBJ_CORE, nullptr);
  if (!core || !hwloc_bitmap_isincluded(set.get(), core->cpuset)) return -1;
  return static_cast<int>(core->logical_index);
}

namespace {

// Where one rank runs, as every rank sends it: host name (cut to fit) and bound core.
struct RankPlace {
  char host[256];
  int core;
};

// Collective over w.comm: every rank's place, in rank order, waited for as w's waits are.
std::vector<RankPlace> gather_places(detail::WorldState& w) {
  RankPlace mine{};
  const std::string host = this_host();
  std::copy_n(host.begin(), std::min(host.size(), sizeof mine.host - 1), mine.host);
  mine.core = bound_core();
  std::vector<RankPlace> all(static_cast<std::size_t>(w.size));
  MPI_Request request = MPI_REQUEST_NULL;
  detail::check_mpi(MPI_Iallgather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, w.comm, &request),
                    "MPI_Iallgather");
  detail::wait_request(w, request, "topo::detect: every rank's host name and core (some rank has not called detect)");
  return all;
}

// The network part of every rank's path, and the names of its levels (the last is "node"): the
// topology file's levels, or one level of host names; emulated nodes (ranks_per_node = k) put a
// "host" level above nodes of k consecutive ranks.
std::vector<std::vector<int>> network_paths(const std::vector<std::string>& hosts, const Settings& settings,
                                            std::vector<std::string>& levels) {
  const int size = static_cast<int>(hosts.size());
  std::vector<std::vector<int>> network(hosts.size());
  std::map<std::string, int> host_index;
  for (const auto& h : hosts) host_index.emplace(h, static_cast<int>(host_index.size()));
  if (!settings.topology_file.empty()) {
    const TopologyFile file = TopologyFile::read(settings.topology_file);
    levels = file.levels();
    for (int r = 0; r < size; ++r)
      network[static_cast<std::size_t>(r)] = file.placement(hosts[static_cast<std::size_t>(r)]);
  } else {
    levels = {"node"};
    for (int r = 0; r < size; ++r) network[static_cast<std::size_t>(r)] = {host_index[hosts[static_cast<std::size_t>(r)]]};
  }
  if (settings.ranks_per_node > 0) {  // emulated nodes: groups of k consecutive ranks
    levels.insert(levels.end() - 1, "host");
    for (int r = 0; r < size; ++r) {
      auto& p = network[static_cast<std::size_t>(r)];
      p.back() = r / settings.ranks_per_node;
      p.insert(p.end() - 1, host_index[hosts[static_cast<std::size_t>(r)]]);
    }
  }
  return network;
}

Topology detect_in(detail::WorldState& w) {
  const std::vector<RankPlace> places = gather_places(w);
  const NodeHierarchy node = detect_node();
  std::vector<std::string> hosts;
  for (const RankPlace& p : places) hosts.emplace_back(p.host);
  std::vector<std::string> levels;
  const std::vector<std::vector<int>> network = network_paths(hosts, w.settings, levels);
  const int node_level = static_cast<int>(levels.size()) - 1;
  levels.insert(levels.end(), node.levels.begin(), node.levels.end());

  // Inside the node: the bound core, else the node rank modulo the cores.
  const int cores = std::max(node.cores(), 1);
  std::map<std::vector<int>, int> node_ranks;
  std::vector<std::vector<int>> paths;
  for (std::size_t r = 0; r < places.size(); ++r) {
    std::vector<int> path = network[r];
    const int local = node_ranks[path]++;
    const bool unbound = places[r].core < 0 || places[r].core >= node.cores();
    const int c = unbound ? local % cores : places[r].core;
    const auto& inside = node.core_paths[static_cast<std::size_t>(c)];
    path.insert(path.end(), inside.begin(), inside.end());
    // Unbound ranks sharing a core stay distinct leaves.
    if (places[r].core < 0) path.back() += node.cores() * (local / cores);
    paths.push_back(std::move(path));
  }
  return Topology(std::move(levels), node_level, std::move(paths), std::move(hosts));
}

}  // namespace

Topology detect(World& world) {
  detail::require_mpi_running("topo::detect");
  return detect_in(detail::world_state(world));
}

Topology detect(MPI_Comm comm, const Settings& settings) {
  detail::require_mpi_running("topo::detect");
  if (settings.ranks_per_node < 0)  // as World checks its own
    raise(Errc::invalid_argument, "topo::detect: settings.ranks_per_node is " +
                                      std::to_string(settings.ranks_per_node) + "; expected >= 0 (0: real nodes)");
  const std::unique_ptr<detail::WorldState> waits = detail::wait_state_for(comm, settings);
  return detect_in(*waits);
}

Topology detect(MPI_Comm comm) {
  detail::require_mpi_running("topo::detect");
  return detect(comm, Settings::from_environment());
}

}  // namespace ghostwire::topo
