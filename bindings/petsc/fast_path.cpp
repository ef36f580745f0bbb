// SPDX-License-Identifier: BSD-3-Clause
// Whether an SF takes the fast path, and the graph the fast path runs on.
#include "fast_path.hpp"

#include <ghostwire/error.hpp>

#include "node_fast_path.hpp"
#include "world_cache.hpp"

namespace gwpetsc {
namespace {

// The leaf side from the outer SF's rank fields, the root side from the inner basic SF.
PetscErrorCode read_graph(PetscSF sf, PetscSF inner, NodeGraph* g) {
  PetscInt niranks;
  const PetscMPIInt* iranks;
  const PetscInt *ioffset, *irootloc;
  PetscFunctionBegin;
  g->root_ranks.assign(sf->ranks, sf->ranks + sf->nranks);
  g->roffset.assign(sf->roffset, sf->roffset + sf->nranks + 1);
  g->rmine.assign(sf->rmine, sf->rmine + sf->roffset[sf->nranks]);
  PetscCall(PetscSFGetLeafRanks(inner, &niranks, &iranks, &ioffset, &irootloc));
  g->leaf_ranks.assign(iranks, iranks + niranks);
  g->ioffset.assign(ioffset, ioffset + niranks + 1);
  g->irootloc.assign(irootloc, irootloc + ioffset[niranks]);
  PetscFunctionReturn(0);
}

// Every rank tells each peer where the peer's units start in its message areas: a root rank tells
// its leaf ranks (Bcast), a leaf rank its root ranks (Reduce).
PetscErrorCode exchange_offsets(PetscSF sf, NodeGraph* g) {
  MPI_Comm comm = PetscObjectComm((PetscObject)sf);
  PetscMPIInt to_leaves, to_roots;
  std::size_t nroot = g->root_ranks.size(), nleaf = g->leaf_ranks.size();
  std::vector<MPI_Request> requests;
  PetscFunctionBegin;
  PetscCall(PetscCommGetNewTag(comm, &to_leaves));
  PetscCall(PetscCommGetNewTag(comm, &to_roots));
  g->at_root.assign(nroot, 0);
  g->at_leaf.assign(nleaf, 0);
  requests.resize(2 * (nroot + nleaf));
  MPI_Request* r = requests.data();
  for (std::size_t j = 0; j < nroot; ++j)
    PetscCallMPI(MPI_Irecv(&g->at_root[j], 1, MPIU_INT, g->root_ranks[j], to_leaves, comm, r++));
  for (std::size_t i = 0; i < nleaf; ++i)
    PetscCallMPI(MPI_Irecv(&g->at_leaf[i], 1, MPIU_INT, g->leaf_ranks[i], to_roots, comm, r++));
  for (std::size_t i = 0; i < nleaf; ++i)
    PetscCallMPI(MPI_Isend(&g->ioffset[i], 1, MPIU_INT, g->leaf_ranks[i], to_leaves, comm, r++));
  for (std::size_t j = 0; j < nroot; ++j)
    PetscCallMPI(MPI_Isend(&g->roffset[j], 1, MPIU_INT, g->root_ranks[j], to_roots, comm, r++));
  PetscCallMPI(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
  PetscFunctionReturn(0);
}

bool all_in_node(const ghostwire::World& world, const NodeGraph& g) {
  for (int rank : g.root_ranks)
    if (!world.shares_memory_with(rank)) return false;
  for (int rank : g.leaf_ranks)
    if (!world.shares_memory_with(rank)) return false;
  return true;
}

PetscErrorCode create_node_path(PetscSF sf, PetscSF inner, std::unique_ptr<FastPath>* fast) {
  MPI_Comm comm = PetscObjectComm((PetscObject)sf);
  NodeGraph graph;
  PetscFunctionBegin;
  PetscCall(read_graph(sf, inner, &graph));
  try {
    ghostwire::World& world = world_of(comm);
    PetscMPIInt mine = all_in_node(world, graph) ? 1 : 0, everywhere = 0;
    PetscCallMPI(MPI_Allreduce(&mine, &everywhere, 1, MPI_INT, MPI_LAND, comm));
    if (!everywhere) PetscFunctionReturn(0);  // some edge leaves its node: the inner SF does it all
    PetscCall(exchange_offsets(sf, &graph));
    *fast = std::make_unique<NodeFastPath>(world, std::move(graph));
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "PetscSF ghostwire: cannot set up the fast path: %s", e.what());
  }
  PetscFunctionReturn(0);
}

}  // namespace

PetscErrorCode FastPath::create(PetscSF sf, PetscSF inner, std::unique_ptr<FastPath>* fast) {
  PetscMPIInt size;
  PetscFunctionBegin;
  fast->reset();
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)sf), &size));
  if (size > 1) PetscCall(create_node_path(sf, inner, fast));
  PetscFunctionReturn(0);
}

PetscErrorCode FastPath::destroy(std::unique_ptr<FastPath>* fast) {
  PetscFunctionBegin;
  try {
    fast->reset();
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "PetscSF ghostwire: freeing the fast path's segments failed: %s", e.what());
  }
  PetscFunctionReturn(0);
}

}  // namespace gwpetsc
