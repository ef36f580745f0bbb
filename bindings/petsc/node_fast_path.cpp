// SPDX-License-Identifier: BSD-3-Clause
#include "node_fast_path.hpp"

#include <ghostwire/error.hpp>

#include <algorithm>
#include <cstring>
#include <string>

#include "cross_memory.hpp"

#include "remote_edges.hpp"

namespace gwpetsc {
namespace {

using ghostwire::NotificationId;

NotificationId data_slot(const ghostwire::World& world, int half, int sender) {
  return static_cast<NotificationId>(half * world.size() + sender);
}
NotificationId ack_slot(const ghostwire::World& world, int half, int reader) {
  return static_cast<NotificationId>((2 + half) * world.size() + reader);
}

const char* name(Direction direction) { return direction == Direction::bcast ? "Bcast" : "Reduce"; }

// The half of a node peer's part this link's operation uses (parts differ in size between ranks).
const std::byte* peer_half(const Link& link, int peer) {
  return link.segment->peer_data(peer) + static_cast<std::size_t>(link.half) * (link.segment->fast_path().sizes[peer] / 2);
}

}  // namespace

NodeFastPath::NodeFastPath(ghostwire::World& world, NodeGraph graph, PetscSF remote)
    : world_(world), graph_(std::move(graph)), remote_(remote) {
  bcast_runs_ = runs_of_direction(graph_, Direction::bcast, world_.rank());
  reduce_runs_ = runs_of_direction(graph_, Direction::reduce, world_.rank());
}

NodeFastPath::~NodeFastPath() = default;  // collective: the links' Segments, in creation order

// Units my message area holds at most: those for my peers, not my own.
std::size_t NodeFastPath::units_sent_at_most() const {
  auto to_peers = [me = world_.rank()](const std::vector<int>& peers, const std::vector<PetscInt>& offset) {
    std::size_t units = 0;
    for (std::size_t p = 0; p < peers.size(); ++p)
      if (peers[p] != me) units += static_cast<std::size_t>(offset[p + 1] - offset[p]);
    return units;
  };
  return std::max<std::size_t>({to_peers(graph_.leaf_ranks, graph_.ioffset), to_peers(graph_.root_ranks, graph_.roffset), 1});
}

// A free link that holds units of `unit_bytes`, or a new one. Every rank makes the same choice
// (PETSc calls Begin and End collectively, in the same order), so a new Segment, which is
// collective, is created on every rank together.
Link& NodeFastPath::acquire(std::size_t unit_bytes) {
  for (auto& link : links_)
    if (!link->in_use && link->capacity >= unit_bytes) return *link;
  auto link = std::make_unique<Link>();
  link->capacity = std::max<std::size_t>(unit_bytes, sizeof(double));  // an int link serves doubles later
  // Each half on pages of its own: the hardware prefetchers stop at page ends, so a reader of one
  // half does not pull in the lines its writer is packing into the other.
  link->half_bytes = (header_bytes + link->capacity * units_sent_at_most() + page_bytes - 1) / page_bytes * page_bytes;
  link->segment = std::make_unique<ghostwire::Segment>(world_, 2 * link->half_bytes,
                                                       4 * static_cast<std::size_t>(world_.size()));
  links_.push_back(std::move(link));
  return *links_.back();
}

// A link for this operation, free to pack into.
Link& NodeFastPath::start(Direction direction, MPI_Datatype unit, const void* rootdata, const void* leafdata,
                          const Unit& decoded, UnpackFunction unpack, CombineRun combine) {
  Link& link = acquire(decoded.bytes);
  link.half = static_cast<int>(link.uses++ & 1);
  wait_for_readers(link);
  link.in_use = true;
  link.begun = ++begun_;
  link.direction = direction;
  link.unit = unit;
  link.rootdata = rootdata;
  link.leafdata = leafdata;
  link.decoded = decoded;
  link.unpack = unpack;
  link.combine = combine;
  // My own units straight from one array to the other, unless they are one array (then staged, so
  // that every unit is read before any is written, as basic does).
  link.direct_self = runs(link).self_send >= 0 && runs(link).self_receive >= 0 && rootdata != leafdata;
  return link;
}

// Before packing into a half again: the readers of its last operation (two operations ago) are done.
void NodeFastPath::wait_for_readers(Link& link) {
  std::vector<int>& readers = link.readers[link.half];
  for (int reader : readers) ghostwire::notify_wait(*link.segment, ack_slot(world_, link.half, reader));
  readers.clear();
}

// Asks for the lines of the acknowledgements the next operation on this link waits for (those of
// the other half's readers), so that its Begin finds them at hand.
void NodeFastPath::prefetch_acknowledgements(const Link& link) const {
  const int next = link.half ^ 1;
  const auto& f = link.segment->fast_path();
  for (int reader : link.readers[next])
    __builtin_prefetch(f.peer_base[f.my_rank] + sizeof(std::uint32_t) * ack_slot(world_, next, reader), 0, 2);
}

void NodeFastPath::wait_for_array_readers(Link& link) {
  for (int reader : link.array_readers) ghostwire::notify_wait(*link.segment, ack_slot(world_, link.half, reader));
  link.array_readers.clear();
}

// My own units, when root and leaf arrays overlap: copied aside first, so that every unit is read
// before any is written (as basic does), in this process's memory (no peer reads them).
void NodeFastPath::stage_self(Link& link, const void* data, const DirectionRuns& r) {
  const bool bcast = link.direction == Direction::bcast;
  const std::vector<PetscInt>& offset = bcast ? graph_.ioffset : graph_.roffset;
  const std::vector<PetscInt>& index = bcast ? graph_.irootloc : graph_.rmine;
  const auto s = static_cast<std::size_t>(r.self_send);
  const auto n = offset[s + 1] - offset[s];
  link.self_staged.resize(static_cast<std::size_t>(n) * link.decoded.bytes);
  if (!r.pack[s].empty()) copy_runs(r.pack[s], link.self_staged.data(), data, link.decoded.bytes);
  else pack(data, index.data() + offset[s], n, link.decoded.bytes, link.self_staged.data());
}

// Packs my units for every peer into my part of the link and tells each peer they are there.
void NodeFastPath::send(Link& link, MPI_Op op) {
  bool bcast = link.direction == Direction::bcast;
  const void* data = bcast ? link.rootdata : link.leafdata;
  const std::vector<int>& peers = bcast ? graph_.leaf_ranks : graph_.root_ranks;
  const std::vector<PetscInt>& offset = bcast ? graph_.ioffset : graph_.roffset;
  const std::vector<PetscInt>& index = bcast ? graph_.irootloc : graph_.rmine;
  const std::vector<PetscInt>& at = bcast ? graph_.iarea : graph_.rarea;
  PetscInt units = offset.back();
  if (units > 0 && data == nullptr)
    ghostwire::raise(ghostwire::Errc::invalid_argument,
                     std::string("PetscSF ghostwire: ") + (bcast ? "rootdata" : "leafdata") + " is NULL but " +
                         std::to_string(units) + " units of it are sent from " + world_.where());
  const DirectionRuns& r = runs(link);
  // Where root and leaf arrays overlap, peers must read my units as they were at Begin: staged.
  const bool may_read =
      graph_.transfer != Transfer::segment && !arrays_overlap(graph_, link.rootdata, link.leafdata, link.decoded.bytes);
  std::byte* half = link.segment->data() + static_cast<std::size_t>(link.half) * link.half_bytes;
  std::byte* area = half + header_bytes;
  reinterpret_cast<LinkHeader*>(half)->address = reinterpret_cast<std::uintptr_t>(data);
  std::vector<int>& readers = link.readers[link.half];
  readers.clear();
  link.array_readers.clear();
  for (std::size_t p = 0; p < peers.size(); ++p) {
    if (static_cast<int>(p) == r.self_send) {  // receive() takes them from `data`, or staged privately
      if (!link.direct_self) stage_self(link, data, r);
      continue;
    }
    const auto n = offset[p + 1] - offset[p];
    const std::size_t bytes = static_cast<std::size_t>(n) * link.decoded.bytes;
    if (may_read && use_cma(graph_.transfer, bytes, r.send_runs[p], op == MPI_REPLACE)) {  // the peer reads my array
      link.array_readers.push_back(peers[p]);
      continue;
    }
    if (!r.pack[p].empty())
      copy_runs(r.pack[p], area, data, link.decoded.bytes);
    else
      pack(data, index.data() + offset[p], n, link.decoded.bytes, area + static_cast<std::size_t>(at[p]) * link.decoded.bytes);
    readers.push_back(peers[p]);
    ++counts_.staged;
  }
  counts_.read += static_cast<long>(link.array_readers.size());
  const NotificationId mine = data_slot(world_, link.half, world_.rank());
  for (int peer : readers) ghostwire::notify(peer, *link.segment, mine, staged);
  for (int peer : link.array_readers) ghostwire::notify(peer, *link.segment, mine, read_array);
}

// Peer p's units straight from its array: into my array where the op replaces and my indices do
// not repeat, otherwise into scratch_, then combined as from the peer's part.
void NodeFastPath::read_peer(const Link& link, std::size_t p, void* data, MPI_Op op) {
  const bool bcast = link.direction == Direction::bcast;
  const std::vector<int>& peers = bcast ? graph_.root_ranks : graph_.leaf_ranks;
  const std::vector<PetscInt>& offset = bcast ? graph_.roffset : graph_.ioffset;
  const std::vector<PetscInt>& index = bcast ? graph_.rmine : graph_.irootloc;
  const DirectionRuns& r = runs(link);
  const int peer = peers[p];
  const pid_t pid = graph_.pids[static_cast<std::size_t>(peer)];
  const auto address = static_cast<std::uintptr_t>(
      reinterpret_cast<const LinkHeader*>(peer_half(link, peer))->address);
  const std::size_t bytes = link.decoded.bytes;
  if (op == MPI_REPLACE && !r.direct[p].empty() && r.direct[p].size() <= 2 * r.remote[p].size()) {
    read_runs(pid, peer, address, data, r.direct[p], bytes);
    return;
  }
  const auto n = offset[p + 1] - offset[p];
  if (scratch_.size() < static_cast<std::size_t>(n) * bytes) scratch_.resize(static_cast<std::size_t>(n) * bytes);
  read_runs(pid, peer, address, scratch_.data(), r.remote[p], bytes);
  if (!r.combine[p].empty())
    combine_runs(r.combine[p], data, scratch_.data(), link.decoded, link.combine);
  else
    link.unpack(data, index.data() + offset[p], n, link.decoded.count, scratch_.data());
}

// Asks for the lines of the peers' packed units (and of my data slots) before my own units are
// combined, so that they arrive meanwhile. Only a hint: a line the peer writes later is fetched again.
void NodeFastPath::prefetch_arrivals(const Link& link) const {
  const bool bcast = link.direction == Direction::bcast;
  const std::vector<int>& peers = bcast ? graph_.root_ranks : graph_.leaf_ranks;
  const std::vector<PetscInt>& offset = bcast ? graph_.roffset : graph_.ioffset;
  const std::vector<PetscInt>& at = bcast ? graph_.at_root : graph_.at_leaf;
  const auto& f = link.segment->fast_path();
  const std::byte* slots = f.peer_base[f.my_rank];
  std::size_t budget = prefetch_bytes;
  for (std::size_t p = 0; p < peers.size() && budget > 0; ++p) {
    if (peers[p] == world_.rank()) continue;
    __builtin_prefetch(slots + sizeof(std::uint32_t) * data_slot(world_, link.half, peers[p]), 0, 2);
    const std::byte* units = peer_half(link, peers[p]) + header_bytes + static_cast<std::size_t>(at[p]) * link.decoded.bytes;
    const std::size_t bytes = std::min(budget, static_cast<std::size_t>(offset[p + 1] - offset[p]) * link.decoded.bytes);
    for (std::size_t b = 0; b < bytes; b += 64) __builtin_prefetch(units + b, 0, 2);
    budget -= bytes;
  }
}

// Peer p's packed units (at `units`) combined into my array.
void NodeFastPath::combine_from(const Link& link, std::size_t p, void* data, const void* units) const {
  const bool bcast = link.direction == Direction::bcast;
  const std::vector<PetscInt>& offset = bcast ? graph_.roffset : graph_.ioffset;
  const std::vector<PetscInt>& index = bcast ? graph_.rmine : graph_.irootloc;
  const DirectionRuns& r = runs(link);
  if (!r.combine[p].empty()) combine_runs(r.combine[p], data, units, link.decoded, link.combine);
  else link.unpack(data, index.data() + offset[p], offset[p + 1] - offset[p], link.decoded.count, units);
}

// Combines every peer's units, in PETSc's rank order, straight from the peer's part into my array.
void NodeFastPath::receive(Link& link, MPI_Op op) {
  bool bcast = link.direction == Direction::bcast;
  void* data = const_cast<void*>(bcast ? link.leafdata : link.rootdata);
  const std::vector<int>& peers = bcast ? graph_.root_ranks : graph_.leaf_ranks;
  const std::vector<PetscInt>& offset = bcast ? graph_.roffset : graph_.ioffset;
  const std::vector<PetscInt>& at = bcast ? graph_.at_root : graph_.at_leaf;
  if (offset.back() > 0 && data == nullptr)
    ghostwire::raise(ghostwire::Errc::invalid_argument,
                     std::string("PetscSF ghostwire: ") + (bcast ? "leafdata" : "rootdata") + " is NULL but " +
                         std::to_string(offset.back()) + " units arrive for it at " + world_.where());
  const DirectionRuns& r = runs(link);
  if (link.direct_self) prefetch_arrivals(link);
  for (std::size_t p = 0; p < peers.size(); ++p) {
    if (static_cast<int>(p) == r.self_receive) {  // in its place in the rank order
      if (link.direct_self) combine_runs(r.self, data, bcast ? link.rootdata : link.leafdata, link.decoded, link.combine);
      else combine_from(link, p, data, link.self_staged.data());
      continue;
    }
    const NotificationId done = ack_slot(world_, link.half, world_.rank());
    if (ghostwire::notify_wait(*link.segment, data_slot(world_, link.half, peers[p])) == read_array) {
      read_peer(link, p, data, op);
      ghostwire::notify(peers[p], *link.segment, done, 1);
      continue;
    }
    combine_from(link, p, data, peer_half(link, peers[p]) + header_bytes + static_cast<std::size_t>(at[p]) * link.decoded.bytes);
    ghostwire::notify(peers[p], *link.segment, done, 1);
  }
}

PetscErrorCode NodeFastPath::begin(Direction direction, MPI_Datatype unit, PetscMemType rootmtype, const void* rootdata,
                                   PetscMemType leafmtype, const void* leafdata, MPI_Op op, PetscBool* taken) {
  Unit decoded;
  PetscFunctionBegin;
  *taken = PETSC_FALSE;
  UnpackFunction unpack = nullptr;
  CombineRun combine = nullptr;
  if (PetscMemTypeHost(rootmtype) && PetscMemTypeHost(leafmtype) && decode_unit(unit, &decoded)) {
    unpack = unpack_function(decoded.element, op);
    combine = combine_run_function(decoded.element, op);
  }
  if (!unpack) {
    ++counts_.declined;
    PetscFunctionReturn(0);
  }
  Link* link = nullptr;
  try {
    link = &start(direction, unit, rootdata, leafdata, decoded, unpack, combine);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "PetscSF ghostwire: %s Begin failed: %s", name(direction), e.what());
  }
  PetscCall(remote_begin(remote_, direction, unit, rootmtype, rootdata, leafmtype, leafdata, op));
  try {
    send(*link, op);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "PetscSF ghostwire: %s Begin failed: %s", name(direction), e.what());
  }
  ++(direction == Direction::bcast ? counts_.bcast : counts_.reduce);
  *taken = PETSC_TRUE;
  PetscFunctionReturn(0);
}

PetscErrorCode NodeFastPath::end(Direction direction, MPI_Datatype unit, const void* rootdata, const void* leafdata,
                                 MPI_Op op, PetscBool* taken) {
  Link* found = oldest_in_flight(links_, direction, unit, rootdata, leafdata);
  PetscFunctionBegin;
  *taken = found ? PETSC_TRUE : PETSC_FALSE;
  if (!found) PetscFunctionReturn(0);
  try {
    receive(*found, op);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "PetscSF ghostwire: %s End failed: %s", name(direction), e.what());
  }
  PetscCall(remote_end(remote_, direction, unit, rootdata, leafdata, op));
  try {
    wait_for_array_readers(*found);  // the user may change my array once End returns
    prefetch_acknowledgements(*found);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "PetscSF ghostwire: %s End failed: %s", name(direction), e.what());
  }
  found->in_use = false;
  PetscFunctionReturn(0);
}

}  // namespace gwpetsc
