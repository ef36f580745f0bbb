// SPDX-License-Identifier: BSD-3-Clause
// gw-topo-bench: a 3-D stencil halo exchange (6 neighbours of a periodic process grid, one message
// per face, MPI_Isend/Irecv) timed per message size with each rank placement: rank order (the
// launcher's), ghostwire's hierarchical mapping (topo::map_hierarchical on the detected hierarchy)
// and Open MPI's treematch (MPI_Dist_graph_create_adjacent with reorder=1). The relative
// improvement factor per size (rank order's time / the mapping's) is what the DASH study reported.
//
//   OMPI_MCA_rmaps_base_mapping_policy=node OMPI_MCA_topo=treematch,basic
//   scripts/launch --path multihost -n 8 -- build/bench/gw-topo-bench [--sizes 1,...,2M]
//                  [--iterations N] [--repeats R] [--grid 3d:1,2,4]
//
// The header lists every rank's host, so that the launcher's placement can be checked. On two
// hosts with ranks alternating, a 2 x 2 (4 ranks) or 2 x 2 x 2 (8 ranks) grid is already cut once,
// the least possible: rank order is then optimal and the factor is 1. Grids with a dimension of 4
// (--grid 3d:1,1,4 at 4 ranks, 3d:1,2,4 at 8) are where alternating hosts cut twice as much.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "ghostwire/topo.hpp"

namespace topo = ghostwire::topo;

namespace {

struct Options {
  std::vector<long> sizes = {1, 8, 64, 512, 4096, 32768, 262144, 2097152};
  int iterations = 50;
  int repeats = 5;
  std::string grid = "3d:auto";
};

long parse_size(const std::string& text) {
  char* end = nullptr;
  long v = std::strtol(text.c_str(), &end, 10);
  if (*end == 'K') v <<= 10, ++end;
  else if (*end == 'M') v <<= 20, ++end;
  if (text.empty() || *end != '\0' || v < 1) {
    std::fprintf(stderr, "gw-topo-bench: '%s' is not a size (e.g. 64, 4K, 2M)\n", text.c_str());
    std::exit(2);
  }
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::string value = i + 1 < argc ? argv[i + 1] : "";
    if (arg == "--sizes") {
      o.sizes.clear();
      std::istringstream items(value);
      std::string item;
      while (std::getline(items, item, ',')) o.sizes.push_back(parse_size(item));
      ++i;
    } else if (arg == "--iterations") {
      o.iterations = std::max(1, std::atoi(value.c_str()));
      ++i;
    } else if (arg == "--grid") {
      o.grid = value;
      ++i;
    } else if (arg == "--repeats") {
      o.repeats = std::max(1, std::atoi(value.c_str()));
      ++i;
    } else {
      std::fprintf(stderr, "gw-topo-bench: unknown option '%s' (--sizes, --iterations, --repeats, --grid)\n", arg.c_str());
      std::exit(2);
    }
  }
  return o;
}

// One placement: the communicator to exchange over, and each rank's grid neighbours in it.
struct Placement {
  std::string name;
  MPI_Comm comm = MPI_COMM_NULL;
  std::vector<int> neighbours;  // low, high per dimension
  int internode = 0;            // of my 6 messages, how many leave my node
  int position = 0;             // the grid position I compute (by_assignment placements)
};

std::vector<int> neighbour_positions(const topo::CartGrid& grid, int position) {
  std::vector<int> out;
  const std::vector<int> c = grid.coords(position);
  for (int d = 0; d < grid.dimensions(); ++d)
    for (int step : {-1, 1}) {
      std::vector<int> q = c;
      const int e = grid.extents[static_cast<std::size_t>(d)];
      q[static_cast<std::size_t>(d)] = (q[static_cast<std::size_t>(d)] + step + e) % e;
      out.push_back(grid.position(q));
    }
  return out;
}

// Placement by an assignment position -> rank of `base`.
Placement by_assignment(const std::string& name, const topo::CartGrid& grid, const topo::Assignment& rank_of,
                        const topo::Topology& machine, int rank) {
  std::vector<int> position_of(rank_of.size());
  for (std::size_t p = 0; p < rank_of.size(); ++p) position_of[static_cast<std::size_t>(rank_of[p])] = static_cast<int>(p);
  Placement pl{name, MPI_COMM_WORLD, {}, 0, position_of[static_cast<std::size_t>(rank)]};
  for (int q : neighbour_positions(grid, position_of[static_cast<std::size_t>(rank)])) {
    const int r = rank_of[static_cast<std::size_t>(q)];
    pl.neighbours.push_back(r);
    pl.internode += !machine.same_node(rank, r);
  }
  return pl;
}

// Open MPI's treematch: a distributed graph of the grid with reorder=1; the new communicator's
// rank r computes grid position r.
Placement treematch(const topo::CartGrid& grid, const topo::Topology& machine, int rank) {
  const std::vector<int> mine = neighbour_positions(grid, rank);
  std::vector<int> weights(mine.size(), 1);
  Placement pl{"treematch", MPI_COMM_NULL, {}, 0, 0};
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, static_cast<int>(mine.size()), mine.data(), weights.data(),
                                 static_cast<int>(mine.size()), mine.data(), weights.data(), MPI_INFO_NULL, 1, &pl.comm);
  int new_rank = 0;
  MPI_Comm_rank(pl.comm, &new_rank);
  // Neighbours by grid position = ranks of the new communicator.
  pl.neighbours = neighbour_positions(grid, new_rank);
  // Which world rank holds each new rank, to count inter-node messages.
  std::vector<int> world_of(static_cast<std::size_t>(machine.ranks()));
  MPI_Allgather(&rank, 1, MPI_INT, world_of.data(), 1, MPI_INT, pl.comm);
  for (int n : pl.neighbours) pl.internode += !machine.same_node(rank, world_of[static_cast<std::size_t>(n)]);
  return pl;
}

// The world rank computing each grid position under a placement (collective).
std::vector<int> world_rank_of_position(const Placement& pl, int size) {
  int position = 0;
  if (pl.comm == MPI_COMM_WORLD) {
    position = pl.position;
  } else {
    MPI_Comm_rank(pl.comm, &position);
  }
  std::vector<int> positions(static_cast<std::size_t>(size)), rank_of(static_cast<std::size_t>(size), 0);
  MPI_Allgather(&position, 1, MPI_INT, positions.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r) rank_of[static_cast<std::size_t>(positions[static_cast<std::size_t>(r)])] = r;
  return rank_of;
}

double exchange_time(const Placement& pl, long bytes, int iterations) {
  const std::size_t n = pl.neighbours.size();
  std::vector<std::vector<char>> send(n, std::vector<char>(static_cast<std::size_t>(bytes), 1)),
      recv(n, std::vector<char>(static_cast<std::size_t>(bytes)));
  std::vector<MPI_Request> requests(2 * n);
  MPI_Barrier(pl.comm);
  const double start = MPI_Wtime();
  for (int it = 0; it < iterations; ++it) {
    for (std::size_t i = 0; i < n; ++i)
      // Tag = direction of the face as the receiver sees it: low of dim d arrives from the high side.
      MPI_Irecv(recv[i].data(), static_cast<int>(bytes), MPI_CHAR, pl.neighbours[i], static_cast<int>(i), pl.comm, &requests[i]);
    for (std::size_t i = 0; i < n; ++i)
      MPI_Isend(send[i].data(), static_cast<int>(bytes), MPI_CHAR, pl.neighbours[i], static_cast<int>(i ^ 1u), pl.comm,
                &requests[n + i]);
    MPI_Waitall(static_cast<int>(2 * n), requests.data(), MPI_STATUSES_IGNORE);
  }
  double mine = (MPI_Wtime() - start) / iterations, slowest = 0;
  MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, pl.comm);
  return slowest;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const Options options = parse(argc, argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const topo::Topology machine = topo::detect(MPI_COMM_WORLD);
  topo::CartGrid grid;
  try {
    grid = topo::CartGrid::parse(options.grid, size, {1});
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "gw-topo-bench: --grid: %s\n", e.what());
    MPI_Finalize();
    return 2;
  }
  if (grid.size() != size) {
    if (rank == 0) std::fprintf(stderr, "gw-topo-bench: --grid %s has %d positions but the job has %d ranks\n",
                                options.grid.c_str(), grid.size(), size);
    MPI_Finalize();
    return 2;
  }

  std::vector<Placement> placements;
  placements.push_back(by_assignment("rank_order", grid, topo::map_rank_order(grid, machine), machine, rank));
  placements.push_back(by_assignment("hierarchical", grid, topo::map_hierarchical(grid, machine), machine, rank));
  placements.push_back(treematch(grid, machine, rank));

  if (rank == 0) {
    std::printf("3-D stencil exchange, %d ranks on %d nodes, grid %s\n", size, machine.node_count(),
                grid.describe().c_str());
    // Where the launcher put each rank (round robin alternates the hosts), and who computes which
    // grid position in each placement.
    std::printf("hosts by rank:");
    for (int r = 0; r < size; ++r) std::printf(" %d:%s", r, machine.host(r).c_str());
    std::printf("\n");
  }
  for (const Placement& pl : placements) {
    const std::vector<int> by_position = world_rank_of_position(pl, size);
    if (rank != 0) continue;
    std::printf("%-14s hosts by position:", pl.name.c_str());
    for (int p = 0; p < size; ++p) std::printf(" %s", machine.host(by_position[static_cast<std::size_t>(p)]).c_str());
    std::printf("\n");
  }
  if (rank == 0)
    std::printf("%-14s %10s %12s %10s %14s\n", "placement", "bytes", "time us", "factor", "internode msgs");
  for (long bytes : options.sizes) {
    std::vector<double> best(placements.size(), 1e30);
    // One untimed exchange per placement first: connections and buffers of this size are then
    // warm for all, not only for whichever placement runs second.
    for (const Placement& pl : placements) exchange_time(pl, bytes, 1);
    // Placements interleaved per repeat so that drifting load hits them alike.
    for (int r = 0; r < options.repeats; ++r)
      for (std::size_t p = 0; p < placements.size(); ++p)
        best[p] = std::min(best[p], exchange_time(placements[p], bytes, options.iterations));
    for (std::size_t p = 0; p < placements.size(); ++p) {
      int internode = 0;
      MPI_Reduce(&placements[p].internode, &internode, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
      if (rank != 0) continue;
      const double factor = best[0] / best[p];
      std::printf("%-14s %10ld %12.2f %10.3f %14d\n", placements[p].name.c_str(), bytes, best[p] * 1e6, factor, internode);
      std::printf("{\"bench\":\"topo_stencil\",\"placement\":\"%s\",\"ranks\":%d,\"nodes\":%d,\"bytes\":%ld,"
                  "\"time_s\":%.9g,\"improvement_factor\":%.4f,\"internode_messages\":%d}\n",
                  placements[p].name.c_str(), size, machine.node_count(), bytes, best[p], factor, internode);
    }
  }
  if (rank == 0) std::printf("verified: 3 placements\n");
  for (auto& p : placements)
    if (p.comm != MPI_COMM_WORLD) MPI_Comm_free(&p.comm);
  MPI_Finalize();
  return 0;
}
