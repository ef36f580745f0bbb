// SPDX-License-Identifier: BSD-3-Clause
// Setting an SF's fast path up: its node-local graph, an SF of its own for the edges between nodes,
// and the fast path on the halo core (core_fast_path.hpp); freeing it.
#include "fast_path.hpp"

#include <ghostwire/error.hpp>

#include <algorithm>
#include <string>

#include "core_fast_path.hpp"
#include "sf_ghostwire.hpp"
#include "world_cache.hpp"

namespace gwpetsc {
namespace {

// Where each peer's units start in my message area, my own left out (they stay in this process).
std::vector<PetscInt> area_offsets(const std::vector<int>& peers, const std::vector<PetscInt>& offset, int me) {
  std::vector<PetscInt> area(peers.size(), 0);
  PetscInt next = 0;
  for (std::size_t p = 0; p < peers.size(); ++p) {
    if (peers[p] == me) continue;
    area[p] = next;
    next += offset[p + 1] - offset[p];
  }
  return area;
}

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
  PetscInt first, last;
  PetscCall(PetscSFGetLeafRange(sf, &first, &last));
  g->root_extent = sf->nroots;
  g->leaf_extent = last + 1;
  g->iarea = area_offsets(g->leaf_ranks, g->ioffset, world.rank());
  g->rarea = area_offsets(g->root_ranks, g->roffset, world.rank());
  PetscFunctionReturn(0);
}

// The edges between nodes as an SF of their own (basic), built when any rank has one: collective.
// Its leaves grouped by root rank as the outer SF's rank fields hold them (basic groups them so).
PetscErrorCode build_remote_sf(PetscSF sf, const ghostwire::World& world, PetscSF* remote) {
  std::vector<PetscInt> ilocal;
  std::vector<PetscSFNode> iremote;
  PetscMPIInt mine, anywhere = 0;
  PetscFunctionBegin;
  *remote = nullptr;
  for (PetscInt j = 0; j < sf->nranks; ++j) {
    if (world.shares_memory_with(sf->ranks[j])) continue;
    for (PetscInt k = sf->roffset[j]; k < sf->roffset[j + 1]; ++k) {
      ilocal.push_back(sf->rmine[k]);
      iremote.push_back(PetscSFNode{sf->ranks[j], sf->rremote[k]});
    }
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

// Collective: every rank must force the same transfer (the plans' paths are chosen alike on both
// ends of a message).
PetscErrorCode check_transfer_agrees(PetscSF sf, Transfer transfer) {
  int modes[2] = {static_cast<int>(transfer), -static_cast<int>(transfer)}, extremes[2];
  PetscFunctionBegin;
  PetscCallMPI(MPI_Allreduce(modes, extremes, 2, MPI_INT, MPI_MAX, PetscObjectComm((PetscObject)sf)));
  PetscCheck(extremes[0] == -extremes[1], PetscObjectComm((PetscObject)sf), PETSC_ERR_ARG_INCOMP,
             "PetscSF ghostwire: -sf_ghostwire_transfer (GHOSTWIRE_PETSC_TRANSFER) differs between ranks");
  PetscFunctionReturn(0);
}

// Collective: whether any rank has an edge to another rank of its node. Without one the fast path
// would only add its own steps to basic's messages (one rank per node) and copies (self edges).
PetscErrorCode any_node_peer(PetscSF sf, const NodeGraph& g, int me, PetscBool* any) {
  auto other = [me](const std::vector<int>& ranks) {
    return std::any_of(ranks.begin(), ranks.end(), [me](int r) { return r != me; });
  };
  PetscMPIInt mine = other(g.root_ranks) || other(g.leaf_ranks) ? 1 : 0, anywhere = 0;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Allreduce(&mine, &anywhere, 1, MPI_INT, MPI_LOR, PetscObjectComm((PetscObject)sf)));
  *any = anywhere ? PETSC_TRUE : PETSC_FALSE;
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
    PetscBool peers = PETSC_FALSE;
    PetscCall(any_node_peer(sf, graph, world.rank(), &peers));
    if (!peers) PetscFunctionReturn(0);  // nothing for the fast path: all to the inner basic SF
    PetscCall(check_transfer_agrees(sf, d.transfer));
    PetscCall(build_remote_sf(sf, world, &remote));
    graph.transfer = d.transfer;
    *fast = std::make_unique<CoreFastPath>(world, std::move(graph), remote);
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
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "PetscSF ghostwire: freeing the fast path's plans failed: %s", e.what());
  }
  PetscFunctionReturn(0);
}

}  // namespace gwpetsc
