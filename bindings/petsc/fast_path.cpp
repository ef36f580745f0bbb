// SPDX-License-Identifier: BSD-3-Clause
// The fast path of an SF: its node-local graph, and an SF of its own for the edges between nodes.
#include "fast_path.hpp"

#include <ghostwire/error.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "core_fast_path.hpp"
#include "cross_memory.hpp"
#include "node_fast_path.hpp"
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
    PetscCallMPI(MPI_Isend(&g->iarea[i], 1, MPIU_INT, g->leaf_ranks[i], to_leaves, comm, r++));
  for (std::size_t j = 0; j < nroot; ++j)
    PetscCallMPI(MPI_Isend(&g->rarea[j], 1, MPIU_INT, g->root_ranks[j], to_roots, comm, r++));
  PetscCallMPI(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
  PetscFunctionReturn(0);
}

// For cross-memory reads, every sender tells each receiver its indices of the units it sends it:
// a root rank its leaf ranks (Bcast), a leaf rank its root ranks (Reduce). Not to itself: a rank's
// own units never go by cross-memory attach.
PetscErrorCode exchange_indices(PetscSF sf, NodeGraph* g) {
  MPI_Comm comm = PetscObjectComm((PetscObject)sf);
  PetscMPIInt to_leaves, to_roots, me;
  std::vector<MPI_Request> requests;
  auto count = [](const std::vector<PetscInt>& offset, std::size_t k) {
    return static_cast<PetscMPIInt>(offset[k + 1] - offset[k]);
  };
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &me));
  PetscCall(PetscCommGetNewTag(comm, &to_leaves));
  PetscCall(PetscCommGetNewTag(comm, &to_roots));
  g->from_root.assign(g->rmine.size(), 0);
  g->from_leaf.assign(g->irootloc.size(), 0);
  auto post = [&](auto call, PetscInt* base, const std::vector<PetscInt>& offset, const std::vector<int>& peers, int tag) {
    for (std::size_t k = 0; k < peers.size(); ++k) {
      if (peers[k] == me) continue;
      requests.emplace_back();
      PetscCallMPI(call(base + offset[k], count(offset, k), MPIU_INT, peers[k], tag, comm, &requests.back()));
    }
    return PetscErrorCode(0);
  };
  auto receive = [](void* b, int n, MPI_Datatype t, int p, int tag, MPI_Comm c, MPI_Request* r) { return MPI_Irecv(b, n, t, p, tag, c, r); };
  auto send = [](void* b, int n, MPI_Datatype t, int p, int tag, MPI_Comm c, MPI_Request* r) { return MPI_Isend(b, n, t, p, tag, c, r); };
  PetscCall(post(receive, g->from_root.data(), g->roffset, g->root_ranks, to_leaves));
  PetscCall(post(receive, g->from_leaf.data(), g->ioffset, g->leaf_ranks, to_roots));
  PetscCall(post(send, g->irootloc.data(), g->ioffset, g->leaf_ranks, to_leaves));
  PetscCall(post(send, g->rmine.data(), g->roffset, g->root_ranks, to_roots));
  PetscCallMPI(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE));
  PetscFunctionReturn(0);
}

// Whether this rank can read every peer it receives from: one process_vm_readv of each peer's
// probe word (pids and probe addresses gathered from every rank).
bool probe_peers(const NodeGraph& g, const std::vector<std::uint64_t>& probes, int me, std::string* why) {
  for (const auto* peers : {&g.root_ranks, &g.leaf_ranks})
    for (int peer : *peers)
      if (peer != me && !probe(g.pids[static_cast<std::size_t>(peer)], peer, probes[static_cast<std::size_t>(peer)], why))
        return false;
  return true;
}

// Collective: cross-memory attach is used only if every rank could read its peers. If not, auto
// falls back to the segment (saying why with -info); a forced cma is an error naming the cause.
PetscErrorCode set_up_transfer(PetscSF sf, Transfer transfer, NodeGraph* g) {
  MPI_Comm comm = PetscObjectComm((PetscObject)sf);
  PetscMPIInt size, rank;
  int mine, all = 0;
  std::string why;
  PetscFunctionBegin;
  // Every rank must choose alike (the choice decides which collectives follow).
  int modes[2] = {static_cast<int>(transfer), -static_cast<int>(transfer)}, extremes[2];
  PetscCallMPI(MPI_Allreduce(modes, extremes, 2, MPI_INT, MPI_MAX, comm));
  PetscCheck(extremes[0] == -extremes[1], comm, PETSC_ERR_ARG_INCOMP,
             "PetscSF ghostwire: -sf_ghostwire_transfer (GHOSTWIRE_PETSC_TRANSFER) differs between ranks");
  g->transfer = transfer;
  if (transfer == Transfer::segment) PetscFunctionReturn(0);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  const int pid = static_cast<int>(getpid());
  const std::uint64_t address = probe_address();
  std::vector<int> pids(static_cast<std::size_t>(size));
  std::vector<std::uint64_t> probes(static_cast<std::size_t>(size));
  PetscCallMPI(MPI_Allgather(&pid, 1, MPI_INT, pids.data(), 1, MPI_INT, comm));
  PetscCallMPI(MPI_Allgather(&address, 1, MPI_UINT64_T, probes.data(), 1, MPI_UINT64_T, comm));
  g->pids.assign(pids.begin(), pids.end());
  mine = probe_peers(*g, probes, rank, &why) ? 1 : 0;
  PetscCallMPI(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, comm));
  if (all) PetscCall(exchange_indices(sf, g));
  if (all) PetscFunctionReturn(0);
  if (why.empty()) why = "it fails on another rank";
  PetscCheck(transfer != Transfer::cma, PETSC_COMM_SELF, PETSC_ERR_SYS,
             "PetscSF ghostwire: -sf_ghostwire_transfer cma, but cross-memory attach does not work: %s", why.c_str());
  PetscCall(PetscInfo(sf, "PetscSF ghostwire: messages through the segment, cross-memory attach does not work: %s\n",
                      why.c_str()));
  g->transfer = Transfer::segment;
  g->pids.clear();
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
    PetscCall(build_remote_sf(sf, world, &remote));
    const char* protocol = std::getenv("GHOSTWIRE_PETSC_PROTOCOL");
    if (protocol && std::string(protocol) == "core") {  // the plans place messages themselves
      graph.transfer = d.transfer;
      *fast = std::make_unique<CoreFastPath>(world, std::move(graph), remote);
      PetscFunctionReturn(0);
    }
    PetscCall(exchange_offsets(sf, &graph));
    PetscCall(set_up_transfer(sf, d.transfer, &graph));
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
