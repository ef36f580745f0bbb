// A job reordered for a weighted graph (unstructured halos): which rank computes which part, and a
// communicator and World in that order.
#include <memory>
#include <numeric>

#include "ghostwire/error.hpp"
#include "ghostwire/topo.hpp"
#include "ghostwire/world.hpp"

namespace ghostwire::topo {

Assignment map_graph(World& world, const Graph& graph) {
  if (graph.vertices() != world.size())
    raise(Errc::invalid_argument, "map_graph: the graph has " + std::to_string(graph.vertices()) +
                                      " vertices but the world has " + std::to_string(world.size()) +
                                      " ranks; expected one part per rank");
  // detect() is collective; the mapping is computed alike on every rank from the same topology.
  // Rank 0's answer is broadcast all the same, so that a tie broken differently cannot split it.
  Assignment rank_of = map_graph(graph, detect(world.comm()));
  MPI_Bcast(rank_of.data(), static_cast<int>(rank_of.size()), MPI_INT, 0, world.comm());
  return rank_of;
}

MPI_Comm reordered_comm(MPI_Comm comm, const Assignment& rank_of) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (!is_permutation(rank_of, size))
    raise(Errc::invalid_argument, "reordered_comm: the assignment has " + std::to_string(rank_of.size()) +
                                      " entries and is not a permutation of the communicator's " +
                                      std::to_string(size) + " ranks");
  int position = 0;
  for (int v = 0; v < size; ++v)
    if (rank_of[static_cast<std::size_t>(v)] == rank) position = v;
  MPI_Comm result = MPI_COMM_NULL;
  MPI_Comm_split(comm, 0, position, &result);
  return result;
}

std::unique_ptr<World> reordered(World& world, const Graph& graph) {
  MPI_Comm comm = reordered_comm(world.comm(), map_graph(world, graph));
  auto result = std::make_unique<World>(comm);  // World keeps its own duplicate
  MPI_Comm_free(&comm);
  return result;
}

}  // namespace ghostwire::topo
