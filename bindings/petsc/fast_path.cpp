// SPDX-License-Identifier: BSD-3-Clause
// The fast path of an SF: its node-local graph, and an SF of its own for the edges between nodes.
#include "fast_path.hpp"

#include <ghostwire/error.hpp>

#include "node_fast_path.hpp"
#include "sf_ghostwire.hpp"
#include "world_cache.hpp"

namespace gwpetsc {
namespace {

// The node-local part of the graph: the leaf side from the outer SF's rank fields, the root side
// from the inner basic SF, each without the ranks on other nodes.
PetscErrorCode read_graph(PetscSF sf, PetscSF inner, const ghostwire::World& world, NodeGraph* g) {
  PetscInt niranks;
  const PetscMPIInt* iranks;
  const PetscInt *ioffset, *irootloc;
  PetscFunctionBegin;
  g->roffset.assign(1, 0);
  for (PetscInt j = 0; j < sf->nranks; ++j) {
    if (!world.shares_memory_with(sf->ranks[j])) continue;
    g->root_ranks.push_back(sf->ranks[j]);
    g->rmine.insert(g->rmine.end(), sf->rmine + sf->roffset[j], sf->rmine + sf->roffset[j + 1]);
    g->roffset.push_back(static_cast<PetscInt>(g->rmine.size()));
  }
  PetscCall(PetscSFGetLeafRanks(inner, &niranks, &iranks, &ioffset, &irootloc));
  g->ioffset.assign(1, 0);
  for (PetscInt i = 0; i < niranks; ++i) {
    if (!world.shares_memory_with(iranks[i])) continue;
    g->leaf_ranks.push_back(iranks[i]);
    g->irootloc.insert(g->irootloc.end(), irootloc + ioffset[i], irootloc + ioffset[i + 1]);
    g->ioffset.push_back(static_cast<PetscInt>(g->irootloc.size()));
  }
  PetscFunctionReturn(0);
}

// The edges between nodes as an SF of their own (basic), built when any rank has one: collective.
PetscErrorCode build_remote_sf(PetscSF sf, const ghostwire::World& world, PetscSF* remote) {
  std::vector<PetscInt> ilocal;
  std::vector<PetscSFNode> iremote;
  PetscMPIInt mine, anywhere = 0;
  PetscFunctionBegin;
  *remote = nullptr;
  for (PetscInt i = 0; i < sf->nleaves; ++i) {
    if (world.shares_memory_with(static_cast<int>(sf->remote[i].rank))) continue;
    ilocal.push_back(sf->mine ? sf->mine[i] : i);
    iremote.push_back(sf->remote[i]);
  }
  mine = ilocal.empty() ? 0 : 1;
  PetscCallMPI(MPI_Allreduce(&mine, &anywhere, 1, MPI_INT, MPI_LOR, PetscObjectComm((PetscObject)sf)));
  if (!anywhere) PetscFunctionReturn(0);
  PetscCall(PetscSFCreate(PetscObjectComm((PetscObject)sf), remote));
  PetscCall(PetscSFSetType(*remote, PETSCSFBASIC));
  PetscCall(PetscSFSetGraph(*remote, sf->nroots, static_cast<PetscInt>(ilocal.size()), ilocal.data(), PETSC_COPY_VALUES,
                            iremote.data(), PETSC_COPY_VALUES));
  PetscCall(PetscSFSetUp(*remote));
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

PetscErrorCode create_node_path(PetscSF sf, std::unique_ptr<FastPath>* fast) {
  SfData& d = data(sf);
  NodeGraph graph;
  PetscSF remote = nullptr;
  PetscFunctionBegin;
  try {
    ghostwire::World& world = world_of(PetscObjectComm((PetscObject)sf));
    PetscCall(read_graph(sf, d.inner, world, &graph));
    PetscCall(build_remote_sf(sf, world, &remote));
    PetscCall(exchange_offsets(sf, &graph));
    *fast = std::make_unique<NodeFastPath>(world, std::move(graph), remote);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "PetscSF ghostwire: cannot set up the fast path: %s", e.what());
  }
  PetscFunctionReturn(0);
}

}  // namespace

PetscErrorCode FastPath::create(PetscSF sf, std::unique_ptr<FastPath>* fast) {
  PetscMPIInt size;
  PetscFunctionBegin;
  fast->reset();
  PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)sf), &size));
  if (size > 1) PetscCall(create_node_path(sf, fast));
  PetscFunctionReturn(0);
}

PetscErrorCode FastPath::destroy(std::unique_ptr<FastPath>* fast) {
  PetscFunctionBegin;
  if (*fast) PetscCall((*fast)->destroy_remote());
  try {
    fast->reset();
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "PetscSF ghostwire: freeing the fast path's segments failed: %s", e.what());
  }
  PetscFunctionReturn(0);
}

}  // namespace gwpetsc
