// SPDX-License-Identifier: BSD-3-Clause
// A communicator's neighbourhood as MPI's neighbourhood collectives define it (MPI-4.1 section 8.6),
// and the contiguity check of datatypes.
#include "neighbor_graph.hpp"

#include <algorithm>
#include <map>

namespace ghostwire::capi {

void check_mpi_call(int rc, const char* call) {
  if (rc != MPI_SUCCESS) throw MpiError(rc, std::string(call) + " failed (MPI error " + std::to_string(rc) + ")");
}

namespace {

// Cartesian: edges 2d and 2d+1 go to the -1 and +1 neighbour of dimension d. A block sent towards -1
// arrives in the receiver's block from +1 and vice versa (the standard's Example 8.10), which tells
// the two apart when both are the same rank (a periodic dimension of size 1 or 2).
void cartesian(MPI_Comm comm, Neighbourhood& n) {
  int dims = 0;
  check_mpi_call(MPI_Cartdim_get(comm, &dims), "MPI_Cartdim_get");
  for (int d = 0; d < dims; ++d) {
    int minus = MPI_PROC_NULL, plus = MPI_PROC_NULL;
    check_mpi_call(MPI_Cart_shift(comm, d, 1, &minus, &plus), "MPI_Cart_shift");
    const auto low = static_cast<std::size_t>(2 * d);
    n.sources.insert(n.sources.end(), {minus, plus});
    n.destinations.insert(n.destinations.end(), {minus, plus});
    n.send_channel.insert(n.send_channel.end(), {low, low + 1});
    n.receive_channel.insert(n.receive_channel.end(), {low + 1, low});
  }
  n.channels = std::max<std::size_t>(1, 2 * static_cast<std::size_t>(dims));
}

// Graphs: the k-th edge to a rank meets the receiver's k-th edge from this rank (posting order).
std::vector<std::size_t> by_occurrence(const std::vector<int>& ranks, std::size_t& most) {
  std::map<int, std::size_t> seen;
  std::vector<std::size_t> channel;
  for (int rank : ranks) {
    channel.push_back(rank == MPI_PROC_NULL ? 0 : seen[rank]++);
    most = std::max(most, channel.back() + 1);
  }
  return channel;
}

void dist_graph(MPI_Comm comm, Neighbourhood& n) {
  int in = 0, out = 0, weighted = 0;
  check_mpi_call(MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted), "MPI_Dist_graph_neighbors_count");
  n.sources.resize(static_cast<std::size_t>(in));
  n.destinations.resize(static_cast<std::size_t>(out));
  std::vector<int> in_weights(n.sources.size() + 1), out_weights(n.destinations.size() + 1);
  int none = 0;  // MPI reads no element of a zero-length array, but wants a valid pointer
  check_mpi_call(MPI_Dist_graph_neighbors(comm, in, in ? n.sources.data() : &none, in_weights.data(), out,
                                          out ? n.destinations.data() : &none, out_weights.data()),
                 "MPI_Dist_graph_neighbors");
}

void graph(MPI_Comm comm, Neighbourhood& n) {
  int rank = 0, count = 0;
  check_mpi_call(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check_mpi_call(MPI_Graph_neighbors_count(comm, rank, &count), "MPI_Graph_neighbors_count");
  n.sources.resize(static_cast<std::size_t>(count));
  int none = 0;
  check_mpi_call(MPI_Graph_neighbors(comm, rank, count, count ? n.sources.data() : &none), "MPI_Graph_neighbors");
  n.destinations = n.sources;
}

void graph_channels(MPI_Comm comm, Neighbourhood& n) {
  std::size_t most = 1;
  n.send_channel = by_occurrence(n.destinations, most);
  n.receive_channel = by_occurrence(n.sources, most);
  // Both ends of a slot must count the same channels: the most edges any pair has, everywhere.
  unsigned long mine = most, all = 0;
  check_mpi_call(MPI_Allreduce(&mine, &all, 1, MPI_UNSIGNED_LONG, MPI_MAX, comm), "MPI_Allreduce");
  n.channels = all;
}

}  // namespace

Neighbourhood neighbourhood_of(MPI_Comm comm) {
  int topology = MPI_UNDEFINED;
  check_mpi_call(MPI_Topo_test(comm, &topology), "MPI_Topo_test");
  Neighbourhood n;
  if (topology == MPI_CART) {
    cartesian(comm, n);
    n.cartesian = true;
  } else if (topology == MPI_DIST_GRAPH || topology == MPI_GRAPH) {
    if (topology == MPI_DIST_GRAPH) dist_graph(comm, n); else graph(comm, n);
    graph_channels(comm, n);
  } else {
    throw MpiError(MPI_ERR_TOPOLOGY, "the communicator has no topology (MPI_Topo_test gives MPI_UNDEFINED): "
                                     "create it with MPI_Cart_create, MPI_Dist_graph_create(_adjacent) or "
                                     "MPI_Graph_create");
  }
  for (const auto* list : {&n.sources, &n.destinations})
    for (int rank : *list)
      if (rank != MPI_PROC_NULL) n.ranks.push_back(rank);
  std::sort(n.ranks.begin(), n.ranks.end());
  n.ranks.erase(std::unique(n.ranks.begin(), n.ranks.end()), n.ranks.end());
  return n;
}

std::string channel_legend(const Neighbourhood& n) {
  return n.cartesian ? "channel 2d carries the block sent towards -1 along dimension d, 2d+1 towards +1"
                     : "channel k carries the (k+1)-th edge between the two ranks, in the order of their lists";
}

namespace {

bool named(MPI_Datatype type) {
  int integers = 0, addresses = 0, types = 0, combiner = 0;
  MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner);
  return combiner == MPI_COMBINER_NAMED;
}

// Predefined, or contiguous / dup of such a type, all the way down.
bool built_contiguously(MPI_Datatype type) {
  int integers = 0, addresses = 0, types = 0, combiner = 0;
  check_mpi_call(MPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner), "MPI_Type_get_envelope");
  if (combiner == MPI_COMBINER_NAMED) return true;
  if (combiner != MPI_COMBINER_CONTIGUOUS && combiner != MPI_COMBINER_DUP) return false;
  std::vector<int> ints(static_cast<std::size_t>(integers) + 1);
  std::vector<MPI_Aint> addrs(static_cast<std::size_t>(addresses) + 1);
  std::vector<MPI_Datatype> inner(static_cast<std::size_t>(types) + 1);
  check_mpi_call(MPI_Type_get_contents(type, integers, addresses, types, ints.data(), addrs.data(), inner.data()),
                 "MPI_Type_get_contents");
  const bool contiguous = built_contiguously(inner[0]);
  if (!named(inner[0])) MPI_Type_free(&inner[0]);  // get_contents hands out a new handle
  return contiguous;
}

}  // namespace

std::size_t contiguous_size(MPI_Datatype type, const char* what) {
  if (type == MPI_DATATYPE_NULL) throw MpiError(MPI_ERR_TYPE, std::string(what) + " is MPI_DATATYPE_NULL");
  int size = 0;
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  check_mpi_call(MPI_Type_size(type, &size), "MPI_Type_size");
  check_mpi_call(MPI_Type_get_extent(type, &lb, &extent), "MPI_Type_get_extent");
  check_mpi_call(MPI_Type_get_true_extent(type, &true_lb, &true_extent), "MPI_Type_get_true_extent");
  const std::string shape = std::string(what) + " (size " + std::to_string(size) + ", extent " +
                            std::to_string(extent) + ", lower bound " + std::to_string(lb) + ")";
  if (size <= 0) throw MpiError(MPI_ERR_TYPE, shape + " has no data; use a type of at least one byte");
  if (size != extent || lb != 0 || true_lb != 0 || true_extent != extent || !built_contiguously(type))
    throw MpiError(MPI_ERR_TYPE, shape + " is not contiguous: ghostwire takes predefined types and "
                                         "MPI_Type_contiguous / MPI_Type_dup of them; exchange this one with "
                                         "MPI_Neighbor_alltoallv (docs/mpi-shaped.md)");
  return static_cast<std::size_t>(size);
}

}  // namespace ghostwire::capi
