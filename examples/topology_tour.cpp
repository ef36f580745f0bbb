// SPDX-License-Identifier: BSD-3-Clause
// docs/topology.md's examples as one program: detection with a topology file given in Settings,
// grids and patterns placed on the machine or in rank order, a team permuted by hand, and a World
// reordered for an unstructured mesh's graph. Placement changes who computes which block, never
// the result: every grid's sum and every block's global box are checked, and the checksum is the
// same on any number of ranks, placed or not.
//
//   scripts/launch -n 2 -- build/examples/topology_tour
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ghostwire/ghostwire.hpp"
#include "ghostwire/topo.hpp"

namespace gw = ghostwire;

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok && ++failures <= 5) std::printf("topology_tour: %s\n", what.c_str());
}

// A topology file in the generic format listing every host of the job under one rack and switch,
// written by rank 0 (every rank reads it): its path.
std::string write_topology_file(MPI_Comm comm) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  std::vector<char> hosts(sizeof host * static_cast<std::size_t>(size));
  MPI_Gather(host, sizeof host, MPI_CHAR, hosts.data(), sizeof host, MPI_CHAR, 0, comm);
  char path[512] = {};
  if (rank == 0) {
    const std::string file = (std::filesystem::temp_directory_path() /
                              ("gw_topology_tour_" + std::to_string(getpid()) + ".txt")).string();
    std::set<std::string> names;
    for (int r = 0; r < size; ++r) names.insert(&hosts[sizeof host * static_cast<std::size_t>(r)]);
    std::ofstream out(file);
    for (const std::string& name : names) out << name << "  rack=1,switch=1\n";
    file.copy(path, sizeof path - 1);
  }
  MPI_Bcast(path, sizeof path, MPI_CHAR, 0, comm);
  return path;
}

// "Settings": detection from the World's settings, from Settings given with a communicator, and
// from the environment, all on the same machine.
void detection(const std::string& topology_file) {
  MPI_Comm comm = MPI_COMM_WORLD;
  gw::Settings settings = gw::Settings::from_environment();
  settings.topology_file = topology_file;   // e.g. "nodes.txt"
  gw::World world(MPI_COMM_WORLD, settings);
  gw::topo::Topology machine = gw::topo::detect(world);      // the World's settings
  gw::topo::Topology same = gw::topo::detect(comm, settings); // a communicator without a World
  gw::topo::Topology from_env = gw::topo::detect(comm);       // Settings::from_environment()
  expect(machine.level_index("rack") == 0 && machine.level_index("switch") == 1,
         "the topology file's levels come first, got " + std::to_string(machine.level_index("rack")));
  expect(same.levels() == machine.levels(), "detect(comm, settings) reads the same file");
  expect(machine.ranks() == world.size() && machine.node_count() == from_env.node_count(), "ranks and nodes");
}

// A grid's sum, which placement must not change.
double sum_of_ranks_cells(gw::Grid<double, 3>& u) {
  gw::for_each_local(u, [](const gw::Point<3>& g, double& x) { x = double(g[0] * 10000 + g[1] * 100 + g[2]); });
  return gw::reduce(u, gw::ReduceOp::sum);
}

// "Placing grids, patterns and applications".
double placement(gw::World& world) {
  const int ranks = world.size();
  gw::Grid<double, 3> u(world, {32, 32, 32}, gw::Halo<3>(1));                      // Placement::automatic
  gw::Grid<double, 3> v(world, {32, 32, 32}, gw::Halo<3>(1), gw::Placement::rank_order);
  auto team = gw::TeamSpec<3>::placed(world, {ranks, 1, 1}, gw::Placement::hierarchical,
                                      {true, true, true}, {32 / ranks, 32, 32});  // periodic, cells per block
  gw::Pattern<3> p({32, 32, 32}, {gw::BLOCKED, gw::BLOCKED, gw::BLOCKED}, team);
  gw::TeamSpec<2> mine({2, 2}, {3, 2, 1, 0});                                   // any permutation, by hand
  gw::Grid<double, 3> w(world, p, gw::Halo<3>(1));
  const double su = sum_of_ranks_cells(u), sv = sum_of_ranks_cells(v), sw = sum_of_ranks_cells(w);
  expect(su == sv && sv == sw, "placed and unplaced grids hold the same cells");
  expect(w.global_box().low == p.block(world.rank()).low, "a placed block keeps its global coordinates");
  expect(mine.size() == 4, "a team permuted by hand");
  return su;
}

// The graph of a ring of parts, each part's halo 4 KiB to either side: a World in part order.
void reordered(gw::World& world) {
  const int parts = world.size();
  gw::topo::Graph graph;
  graph.offsets.push_back(0);
  for (int v = 0; v < parts; ++v) {
    for (int u : {(v + parts - 1) % parts, (v + 1) % parts})
      if (u != v) {
        graph.targets.push_back(u);
        graph.weights.push_back(4096);
      }
    graph.offsets.push_back(static_cast<int>(graph.targets.size()));
  }
  std::unique_ptr<gw::World> placed = gw::topo::reordered(world, graph);  // rank v computes part v
  expect(placed->size() == world.size(), "the reordered World has every rank");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const std::string file = write_topology_file(MPI_COMM_WORLD);
  double sum = 0;
  int rank = 0;
  {
    detection(file);
    gw::World world;
    rank = world.rank();
    sum = placement(world);
    reordered(world);
  }
  int failed = 0;
  MPI_Allreduce(&failures, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    std::filesystem::remove(file);
    std::printf("topology_tour: %d failed checks\n", failed);
    if (failed == 0) std::printf("checksum %.1f\n", sum);
  }
  MPI_Finalize();
  return 0;
}
