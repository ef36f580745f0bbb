// Detecting the hierarchy of a running job: hwloc inside a node, the topology file or host names
// across nodes.
#include <hwloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>

#include "ghostwire/error.hpp"
#include "ghostwire/topo.hpp"
#include "runtime/mpi_check.hpp"

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

Topology detect(MPI_Comm comm) {
  ghostwire::detail::require_mpi_running("topo::detect");
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const NodeHierarchy node = detect_node();

  // Gather host names (fixed width) and bound cores.
  constexpr int width = 256;
  std::string host = this_host();
  std::vector<char> mine(width, '\0');
  std::copy_n(host.begin(), std::min<std::size_t>(host.size(), width - 1), mine.begin());
  std::vector<char> all(static_cast<std::size_t>(width) * static_cast<std::size_t>(size));
  MPI_Allgather(mine.data(), width, MPI_CHAR, all.data(), width, MPI_CHAR, comm);
  int core = bound_core();
  std::vector<int> cores(static_cast<std::size_t>(size));
  MPI_Allgather(&core, 1, MPI_INT, cores.data(), 1, MPI_INT, comm);
  std::vector<std::string> hosts;
  for (int r = 0; r < size; ++r) hosts.emplace_back(all.data() + static_cast<std::size_t>(r) * width);

  int ranks_per_node = 0;
  if (const char* text = std::getenv("GHOSTWIRE_RANKS_PER_NODE"); text && *text) ranks_per_node = std::atoi(text);
  const char* file_name = std::getenv("GHOSTWIRE_TOPOLOGY");
  std::unique_ptr<TopologyFile> file;
  if (file_name && *file_name) file = std::make_unique<TopologyFile>(TopologyFile::read(file_name));

  // Network part of each rank's path.
  std::vector<std::string> levels;
  std::vector<std::vector<int>> network(static_cast<std::size_t>(size));
  std::map<std::string, int> host_index;
  for (const auto& h : hosts) host_index.emplace(h, static_cast<int>(host_index.size()));
  if (file) {
    levels = file->levels();
    for (int r = 0; r < size; ++r) network[static_cast<std::size_t>(r)] = file->placement(hosts[static_cast<std::size_t>(r)]);
  } else {
    levels = {"node"};
    for (int r = 0; r < size; ++r) network[static_cast<std::size_t>(r)] = {host_index[hosts[static_cast<std::size_t>(r)]]};
  }
  if (ranks_per_node > 0) {  // emulated nodes: groups of k consecutive ranks
    levels.insert(levels.end() - 1, "host");
    for (int r = 0; r < size; ++r) {
      auto& p = network[static_cast<std::size_t>(r)];
      p.back() = r / ranks_per_node;
      p.insert(p.end() - 1, host_index[hosts[static_cast<std::size_t>(r)]]);
    }
  }
  const int node_level = static_cast<int>(levels.size()) - 1;
  levels.insert(levels.end(), node.levels.begin(), node.levels.end());

  // Inside the node: the bound core, else the node rank modulo the cores.
  std::map<std::vector<int>, int> node_ranks;
  std::vector<std::vector<int>> paths;
  for (int r = 0; r < size; ++r) {
    std::vector<int> path = network[static_cast<std::size_t>(r)];
    const int local = node_ranks[path]++;
    int c = cores[static_cast<std::size_t>(r)];
    if (c < 0 || c >= node.cores()) c = local % std::max(node.cores(), 1);
    const auto& inside = node.core_paths[static_cast<std::size_t>(c)];
    path.insert(path.end(), inside.begin(), inside.end());
    // Ranks sharing a core stay distinct leaves.
    path.back() = path.back() + node.cores() * (local / std::max(node.cores(), 1)) * (cores[static_cast<std::size_t>(r)] < 0);
    paths.push_back(std::move(path));
  }
  return Topology(std::move(levels), node_level, std::move(paths), std::move(hosts));
}

}  // namespace ghostwire::topo
