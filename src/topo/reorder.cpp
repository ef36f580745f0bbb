// SPDX-License-Identifier: BSD-3-Clause
// A job reordered for a weighted graph (unstructured halos; docs/topology.md, "Placing grids,
// patterns and applications"): which rank computes which part, and a communicator and World in
// that order. The reordered World keeps the original World's settings.
#include <memory>
#include <numeric>

#include "ghostwire/error.hpp"
#include "ghostwire/topo.hpp"
#include "ghostwire/world.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/wait.hpp"

namespace ghostwire::topo {

Assignment map_graph(World& world, const Graph& graph) {
  if (graph.vertices() != world.size())
    raise(Errc::invalid_argument, "map_graph: the graph has " + std::to_string(graph.vertices()) +
                                      " vertices but the world has " + std::to_string(world.size()) +
                                      " ranks; expected one part per rank");
  // detect() is collective; the mapping is computed alike on every rank from the same topology.
  // Rank 0's answer is broadcast all the same, so that a tie broken differently cannot split it.
  Assignment rank_of = map_graph(graph, detect(world));
  MPI_Request request = MPI_REQUEST_NULL;
  detail::check_mpi(MPI_Ibcast(rank_of.data(), static_cast<int>(rank_of.size()), MPI_INT, 0, world.comm(), &request),
                    "MPI_Ibcast");
  detail::wait_request(detail::world_state(world), request, "map_graph: rank 0's assignment (some rank has not called map_graph)");
  return rank_of;
}

MPI_Comm reordered_comm(MPI_Comm comm, const Assignment& rank_of) {
  detail::require_mpi_running("topo::reordered_comm");
  int rank = 0, size = 0;
  detail::check_mpi(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  detail::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  if (!is_permutation(rank_of, size))
    raise(Errc::invalid_argument, "reordered_comm: the assignment has " + std::to_string(rank_of.size()) +
                                      " entries and is not a permutation of the communicator's " +
                                      std::to_string(size) + " ranks");
  int position = 0;
  for (int v = 0; v < size; ++v)
    if (rank_of[static_cast<std::size_t>(v)] == rank) position = v;
  // Communicator creation has no non-blocking form (MPI_Comm_idup aside): checked, not timed.
  MPI_Comm result = MPI_COMM_NULL;
  detail::check_mpi(MPI_Comm_split(comm, 0, position, &result), "MPI_Comm_split");
  return result;
}

std::unique_ptr<World> reordered(World& world, const Graph& graph) {
  MPI_Comm comm = reordered_comm(world.comm(), map_graph(world, graph));
  auto result = std::make_unique<World>(comm, world.settings());  // World keeps its own duplicate
  detail::check_mpi(MPI_Comm_free(&comm), "MPI_Comm_free");
  return result;
}

}  // namespace ghostwire::topo
