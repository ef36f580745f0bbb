// SPDX-License-Identifier: BSD-3-Clause
#include "core_fast_path.hpp"

#include <ghostwire/error.hpp>
#include <ghostwire/layout.hpp>

#include <algorithm>
#include <cstring>
#include <string>

#include "remote_edges.hpp"

namespace gwpetsc {
namespace {

const char* name(Direction direction) { return direction == Direction::bcast ? "Bcast" : "Reduce"; }

// Every node peer of mine, on either side of the graph, once: the same relation on both ends, as a
// Plan's neighbours must be.
std::vector<int> node_peers(const NodeGraph& g, int me) {
  std::vector<int> peers(g.root_ranks);
  peers.insert(peers.end(), g.leaf_ranks.begin(), g.leaf_ranks.end());
  std::sort(peers.begin(), peers.end());
  peers.erase(std::unique(peers.begin(), peers.end()), peers.end());
  peers.erase(std::remove(peers.begin(), peers.end(), me), peers.end());
  return peers;
}

// Peer p's units of my array, counted from the first unit of `span`.
std::vector<std::size_t> indices_of(const Side& side, std::size_t p, const Span& span) {
  std::vector<std::size_t> indices;
  indices.reserve(static_cast<std::size_t>(side.units(p)));
  for (PetscInt k = side.offset[p]; k < side.offset[p + 1]; ++k)
    indices.push_back(static_cast<std::size_t>(side.index[k] - span.first));
  return indices;
}

// The units of my array that the messages to or from my node peers (not myself) touch.
Span span_of(const Side& side, int me) {
  PetscInt low = 0, high = -1;
  for (std::size_t p = 0; p < side.peers.size(); ++p) {
    if (side.peers[p] == me) continue;
    for (PetscInt k = side.offset[p]; k < side.offset[p + 1]; ++k) {
      low = high < low ? side.index[k] : std::min(low, side.index[k]);
      high = std::max(high, side.index[k]);
    }
  }
  return high < low ? Span{} : Span{low, high - low + 1};
}

// Where `span` starts in the array at `data`.
const std::byte* start_of(const void* data, const Span& span, std::size_t unit_bytes) {
  return static_cast<const std::byte*>(data) + static_cast<std::size_t>(span.first) * unit_bytes;
}

// When one copy by the kernel pays (gw-petsc-sf-bench -run on the 2-vCPU VM, docs/petsc.md "One
// copy or two"): a read is a system call that pins the pages of every run (one iovec each), so the
// message must be 16 KiB or more in runs of 4 KiB on average; where ranks share cores the reader's
// call waits for its core, and one copy pays from 128 KiB, into place only. A message combined
// after it is read loses to staging's two copies on two cores above 1 MiB.
constexpr std::size_t read_min_bytes = 16 * 1024;
constexpr std::size_t read_min_bytes_cores_shared = 128 * 1024;
constexpr std::size_t read_min_run_bytes = 4 * 1024;
constexpr std::size_t read_max_combined_bytes = 1024 * 1024;

bool read_pays(std::size_t bytes, std::size_t runs, bool into_place, bool cores_shared) {
  if (bytes < (cores_shared ? read_min_bytes_cores_shared : read_min_bytes) || bytes < read_min_run_bytes * runs)
    return false;
  return into_place || (!cores_shared && bytes <= read_max_combined_bytes);
}

// Peer p's units, from where a plan left them laid out as my array's `span` (`from`), into my array.
void copy_at(const Side& side, std::size_t p, const Span& span, std::size_t unit_bytes, const std::byte* from,
             void* to) {
  for (PetscInt k = side.offset[p]; k < side.offset[p + 1]; ++k)
    std::memcpy(static_cast<std::byte*>(to) + static_cast<std::size_t>(side.index[k]) * unit_bytes,
                from + static_cast<std::size_t>(side.index[k] - span.first) * unit_bytes, unit_bytes);
}

}  // namespace

CoreFastPath::CoreFastPath(ghostwire::World& world, NodeGraph graph, PetscSF remote)
    : world_(world), graph_(std::move(graph)), neighbours_(node_peers(graph_, world.rank())), remote_(remote) {
  bcast_runs_ = runs_of_direction(graph_, Direction::bcast, world_.rank());
  reduce_runs_ = runs_of_direction(graph_, Direction::reduce, world_.rank());
}

CoreFastPath::~CoreFastPath() = default;  // the links' plans, in creation order, on every rank alike

bool CoreFastPath::busy() const {
  return std::any_of(links_.begin(), links_.end(), [](const auto& link) { return link->in_use; });
}

FastPath::Counts CoreFastPath::counts() const {
  Counts c = counts_;
  c.links = static_cast<long>(links_.size());
  return c;
}

// The path every message of mine on this link takes: the one -sf_ghostwire_transfer forces, or
// under auto cross-memory attach where every message I send pays for it (each rank decides for its
// own messages; the receiver reads whatever its sender chose), else the core's own choice (null).
const char* CoreFastPath::forced_path(const CoreLink& link) const {
  if (graph_.transfer == Transfer::segment) return "staged";
  if (graph_.transfer == Transfer::cma) return "cross-memory";
  const Side send = sending_side(graph_, link.direction);
  bool any = false;
  for (std::size_t p = 0; p < send.peers.size(); ++p) {
    if (send.peers[p] == world_.rank() || send.units(p) == 0) continue;
    if (!read_pays(static_cast<std::size_t>(send.units(p)) * link.unit_bytes, runs(link).send_runs[p],
                   link.into_place, world_.oversubscribed()))
      return nullptr;
    any = true;
  }
  return any ? "cross-memory" : nullptr;
}

// A plan for one direction and unit size: a message to each peer I send to, from the source region
// (my root array in Bcast, my leaf array in Reduce) at my indices for that peer; from each peer I
// receive from, a message into the target region at my indices for it (into place) or into its
// place in `arrivals` (used only when a message is not read in place).
void CoreFastPath::make_plan(CoreLink& link, CorePlan& made) const {
  const Side send = sending_side(graph_, link.direction);
  const int me = world_.rank();
  const std::size_t unit_bytes = link.unit_bytes;
  made.plan = std::make_unique<ghostwire::Plan>(world_, neighbours_, 1);
  if (const char* path = forced_path(link)) made.plan->intra_path(path);
  made.bound = link.placeholder.reserve(static_cast<std::size_t>(std::max<PetscInt>(link.sent.count, 1)) * unit_bytes);
  made.source = made.plan->add_memory(link.placeholder.data(), link.placeholder.size(), unit_bytes);
  add_receives(link, made);
  for (std::size_t p = 0; p < send.peers.size(); ++p)
    if (send.peers[p] != me)
      made.plan->add_send(0, send.peers[p], made.source, ghostwire::Layout::indices(indices_of(send, p, link.sent)));
  made.plan->commit();
  const Side receive = receiving_side(graph_, link.direction);
  made.send_to.resize(send.peers.size());
  for (std::size_t p = 0; p < send.peers.size(); ++p)
    if (send.peers[p] != me) made.send_to[p] = made.plan->send_end(0, send.peers[p]);
  made.receive_from.resize(receive.peers.size());
  for (std::size_t p = 0; p < receive.peers.size(); ++p)
    if (receive.peers[p] != me) made.receive_from[p] = made.plan->receive_end(0, receive.peers[p]);
}

void CoreFastPath::add_receives(CoreLink& link, CorePlan& made) const {
  const Side receive = receiving_side(graph_, link.direction);
  const int me = world_.rank();
  const std::size_t unit_bytes = link.unit_bytes;
  if (link.into_place) {
    made.target_bound = link.scratch.reserve(static_cast<std::size_t>(std::max<PetscInt>(link.received.count, 1)) * unit_bytes);
    made.target = made.plan->add_memory(link.scratch.data(), link.scratch.size(), unit_bytes);
    for (std::size_t p = 0; p < receive.peers.size(); ++p)
      if (receive.peers[p] != me)
        made.plan->add_receive(0, receive.peers[p], made.target,
                               ghostwire::Layout::indices(indices_of(receive, p, link.received)));
    return;
  }
  PetscInt arriving = 0;
  for (std::size_t p = 0; p < receive.peers.size(); ++p)
    if (receive.peers[p] != me) arriving += receive.units(p);
  link.arrivals.resize(static_cast<std::size_t>(std::max<PetscInt>(arriving, 1)) * unit_bytes);
  const ghostwire::Region arrivals = made.plan->add_memory(link.arrivals.data(), link.arrivals.size(), unit_bytes);
  for (std::size_t p = 0; p < receive.peers.size(); ++p) {
    if (receive.peers[p] == me) continue;
    made.plan->add_receive(0, receive.peers[p], arrivals,
                           ghostwire::Layout::contiguous(static_cast<std::size_t>(receive.area[p]),
                                                         static_cast<std::size_t>(receive.units(p))));
  }
}

std::unique_ptr<CoreLink> CoreFastPath::make_link(Direction direction, std::size_t unit_bytes, bool into_place) const {
  auto link = std::make_unique<CoreLink>();
  link->direction = direction;
  link->unit_bytes = unit_bytes;
  link->into_place = into_place;
  const Side send = sending_side(graph_, direction);
  link->sent = span_of(send, world_.rank());
  if (into_place) link->received = span_of(receiving_side(graph_, direction), world_.rank());
  link->sends = std::any_of(send.peers.begin(), send.peers.end(), [me = world_.rank()](int peer) { return peer != me; });
  for (CorePlan& plan : link->plans) make_plan(*link, plan);
  count_paths(*link);
  return link;
}

// How my messages go (for -info and the tests), and a forced cross-memory attach that cannot be
// had stops with the core's reason.
void CoreFastPath::count_paths(CoreLink& link) const {
  const Side send = sending_side(graph_, link.direction);
  for (int peer : send.peers) {
    if (peer == world_.rank()) continue;
    const bool read = link.plans[0].plan->send_path(0, peer) == "cross-memory";
    ++(read ? link.read : link.staged);
    if (read || graph_.transfer != Transfer::cma) continue;
    const std::string text = link.plans[0].plan->describe(), said = "does not work here: ";
    const std::size_t at = text.find(said);
    const std::string why = at == std::string::npos ? "the plan chose " + link.plans[0].plan->send_path(0, peer)
                                                    : text.substr(at + said.size(), text.find(';', at) - at - said.size());
    ghostwire::raise(ghostwire::Errc::unsupported,
                     "-sf_ghostwire_transfer cma, but cross-memory attach does not work: " + why);
  }
}

// A free link of this direction and unit size, or a new one. Every rank makes the same choice
// (PETSc calls Begin and End collectively, in the same order), so a new plan is committed on every
// rank together.
CoreLink& CoreFastPath::acquire(Direction direction, std::size_t unit_bytes, bool into_place) {
  for (auto& link : links_)
    if (!link->in_use && link->direction == direction && link->unit_bytes == unit_bytes &&
        link->into_place == into_place)
      return *link;
  links_.push_back(make_link(direction, unit_bytes, into_place));
  return *links_.back();
}

// My own units, copied aside in this process's memory (no peer reads them).
void CoreFastPath::stage_self(CoreLink& link, const void* data) {
  const Side send = sending_side(graph_, link.direction);
  const DirectionRuns& r = runs(link);
  const auto s = static_cast<std::size_t>(r.self_send);
  const PetscInt n = send.units(s);
  link.self_staged.resize(static_cast<std::size_t>(n) * link.decoded.bytes);
  if (!r.pack[s].empty()) copy_runs(r.pack[s], link.self_staged.data(), data, link.decoded.bytes);
  else pack(data, send.index.data() + send.offset[s], n, link.decoded.bytes, link.self_staged.data());
}

// My units to every peer, one message each, once the message before on each slot is acknowledged.
void CoreFastPath::send(CoreLink& link) {
  const bool bcast = link.direction == Direction::bcast;
  const void* data = bcast ? link.rootdata : link.leafdata;
  const Side side = sending_side(graph_, link.direction);
  const PetscInt units = side.offset.back();
  if (units > 0 && data == nullptr)
    ghostwire::raise(ghostwire::Errc::invalid_argument,
                     std::string("PetscSF ghostwire: ") + (bcast ? "rootdata" : "leafdata") + " is NULL but " +
                         std::to_string(units) + " units of it are sent from " + world_.where());
  const DirectionRuns& r = runs(link);
  // My own units straight from one array to the other, unless they overlap (then staged, so that
  // every unit is read before any is written, as basic does).
  link.direct_self = r.self_send >= 0 && r.self_receive >= 0 &&
                     !arrays_overlap(graph_, link.rootdata, link.leafdata, link.decoded.bytes);
  if (r.self_send >= 0 && r.self_receive >= 0 && !link.direct_self) stage_self(link, data);
  CorePlan& turn = link.plans[link.turn];
  bind(link, turn, link.sent.count > 0 ? start_of(data, link.sent, link.unit_bytes) : turn.bound);
  if (!link.sends) return;
  const int me = world_.rank();
  for (std::size_t p = 0; p < side.peers.size(); ++p) {
    if (side.peers[p] == me || turn.send_to[p].try_send()) continue;
    turn.send_to[p].wait_send();
    turn.send_to[p].send();
  }
  counts_.staged += link.staged;
  counts_.read += link.read;
}

// The plan's regions onto this operation's arrays: the source onto `data` (the first unit I send);
// into place, the target onto the leaf array's received units where they are apart from the root
// units peers read (else onto the scratch), through the scratch so that the two regions never
// overlap on the way. Every message of the plan is taken before its arrays move (its receives
// were, at the End two operations ago).
void CoreFastPath::bind(CoreLink& link, CorePlan& turn, const void* data) {
  const void* target = turn.target_bound;
  if (link.into_place) {
    const std::size_t u = link.unit_bytes;
    const std::byte* leaves = link.leafdata ? start_of(link.leafdata, link.received, u) : nullptr;
    const auto* roots = static_cast<const std::byte*>(data);
    const bool apart = link.sent.count == 0 || leaves + static_cast<std::size_t>(link.received.count) * u <= roots ||
                       roots + static_cast<std::size_t>(link.sent.count) * u <= leaves;
    turn.target_in_place = leaves && link.received.count > 0 && apart;
    target = turn.target_in_place ? leaves : link.scratch.data();
  }
  if (data == turn.bound && target == turn.target_bound) return;
  wait_sends_taken(link);
  if (link.into_place && turn.target_bound != link.scratch.data()) turn.plan->rebind(turn.target, link.scratch.data());
  turn.plan->rebind(turn.source, const_cast<void*>(data));
  if (link.into_place) turn.plan->rebind(turn.target, const_cast<void*>(target));
  turn.bound = data;
  turn.target_bound = target;
}

// Peer p's units (at `units`, in the order of my indices for it) combined into my array.
void CoreFastPath::combine_from(const CoreLink& link, std::size_t p, void* data, const void* units) const {
  const Side side = receiving_side(graph_, link.direction);
  const DirectionRuns& r = runs(link);
  if (!r.combine[p].empty()) combine_runs(r.combine[p], data, units, link.decoded, link.combine);
  else link.unpack(data, side.index.data() + side.offset[p], side.units(p), link.decoded.count, units);
}

// Every peer's units combined into my array in PETSc's rank order, each read where the path left it.
// Where peers read my array (cross-memory attach), End returns only once they have (the array is
// the program's again); if that array overlaps the one I combine into, every message is received
// first, then the readers waited for, then all combined, so that they read it as it was at Begin.
void CoreFastPath::receive(CoreLink& link) {
  const bool bcast = link.direction == Direction::bcast;
  void* data = const_cast<void*>(bcast ? link.leafdata : link.rootdata);
  const Side side = receiving_side(graph_, link.direction);
  if (side.offset.back() > 0 && data == nullptr)
    ghostwire::raise(ghostwire::Errc::invalid_argument,
                     std::string("PetscSF ghostwire: ") + (bcast ? "leafdata" : "rootdata") + " is NULL but " +
                         std::to_string(side.offset.back()) + " units arrive for it at " + world_.where());
  const DirectionRuns& r = runs(link);
  CorePlan& turn = link.plans[link.turn];
  const int me = world_.rank();
  const bool readers_first =
      link.read > 0 && arrays_overlap(graph_, link.rootdata, link.leafdata, link.decoded.bytes);
  if (readers_first) {
    for (int peer : side.peers)
      if (peer != me) turn.plan->wait_recv_in_place(0, peer);
    wait_sends_taken(link);
  }
  if (link.direct_self && link.read == 0) prefetch_arrivals(link);
  for (std::size_t p = 0; p < side.peers.size(); ++p) {
    if (static_cast<int>(p) == r.self_receive) {  // in its place in the rank order
      if (link.direct_self) combine_runs(r.self, data, bcast ? link.rootdata : link.leafdata, link.decoded, link.combine);
      else combine_from(link, p, data, link.self_staged.data());
      continue;
    }
    const int peer = side.peers[p];
    if (readers_first) {  // received above
      take(link, p, data, turn.plan->view(0, peer));
      turn.plan->release(0, peer);
      continue;
    }
    turn.receive_from[p].read_in_place([&](const std::byte* units) { take(link, p, data, units); });
  }
  if (link.read > 0 && !readers_first) wait_sends_taken(link);
}

// Every message of the operation's plan is taken by its receiver (copied out, or read from my array
// by cross-memory attach).
void CoreFastPath::wait_sends_taken(CoreLink& link) {
  CorePlan& turn = link.plans[link.turn];
  const Side side = sending_side(graph_, link.direction);
  for (std::size_t p = 0; p < side.peers.size(); ++p)
    if (side.peers[p] != world_.rank()) turn.send_to[p].wait_send();
}

// Peer p's message into my array: from where it is (`view`), or from where the plan copied it (its
// arrival; into place, the leaf array itself, or the scratch laid out as it).
void CoreFastPath::take(const CoreLink& link, std::size_t p, void* data, const std::byte* view) const {
  const Side side = receiving_side(graph_, link.direction);
  if (view) return combine_from(link, p, data, view);
  if (!link.into_place) return combine_from(link, p, data, arrival(link, side, p));
  const CorePlan& turn = link.plans[link.turn];
  if (!turn.target_in_place) copy_at(side, p, link.received, link.unit_bytes, link.scratch.data(), data);
}

// Where peer p's message is copied when it is not read in place.
const std::byte* CoreFastPath::arrival(const CoreLink& link, const Side& side, std::size_t p) const {
  return link.arrivals.data() + static_cast<std::size_t>(side.area[p]) * link.unit_bytes;
}

// Before my own units are combined: the lines of every peer's message (where it is or will be read
// in place: at most prefetch_bytes in all, a part of the L2 cache) and of its arrival are asked for,
// so that they are at hand when their turn in the rank order comes. Only a hint: a line the peer
// writes later is fetched again; the combining order is unchanged.
void CoreFastPath::prefetch_arrivals(CoreLink& link) const {
  const Side side = receiving_side(graph_, link.direction);
  CorePlan& turn = link.plans[link.turn];
  std::size_t budget = prefetch_bytes;
  for (std::size_t p = 0; p < side.peers.size() && budget > 0; ++p) {
    if (side.peers[p] == world_.rank()) continue;
    const std::size_t bytes = std::min(budget, static_cast<std::size_t>(side.units(p)) * link.unit_bytes);
    budget -= bytes;
    turn.receive_from[p].prefetch(bytes);
  }
}

// The link's next operation sends on its other plan: the lines its sends check (the
// acknowledgements of that plan's last messages) asked for now, so that Begin need not wait for
// them to come from the readers' cores. Only a hint, as prefetch_arrivals.
void CoreFastPath::prefetch_sends(CoreLink& link) const {
  if (!link.sends) return;
  const Side side = sending_side(graph_, link.direction);
  CorePlan& next = link.plans[link.uses & 1];
  for (std::size_t p = 0; p < side.peers.size(); ++p)
    if (side.peers[p] != world_.rank()) next.send_to[p].prefetch(0);
}

PetscErrorCode CoreFastPath::begin(Direction direction, MPI_Datatype unit, PetscMemType rootmtype, const void* rootdata,
                                   PetscMemType leafmtype, const void* leafdata, MPI_Op op, PetscBool* taken) {
  Unit decoded;
  UnpackFunction unpack = nullptr;
  CombineRun combine = nullptr;
  PetscFunctionBegin;
  *taken = PETSC_FALSE;
  if (PetscMemTypeHost(rootmtype) && PetscMemTypeHost(leafmtype) && decode_unit(unit, &decoded)) {
    unpack = unpack_function(decoded.element, op);
    combine = combine_run_function(decoded.element, op);
  }
  if (!unpack) {
    ++counts_.declined;
    PetscFunctionReturn(0);
  }
  CoreLink* link = nullptr;
  try {
    link = &acquire(direction, decoded.bytes, direction == Direction::bcast && op == MPI_REPLACE);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "PetscSF ghostwire: %s Begin failed: %s", name(direction), e.what());
  }
  link->in_use = true;
  link->turn = static_cast<int>(link->uses++ & 1);
  link->begun = ++begun_;
  link->unit = unit;
  link->rootdata = rootdata;
  link->leafdata = leafdata;
  link->decoded = decoded;
  link->unpack = unpack;
  link->combine = combine;
  PetscCall(remote_begin(remote_, direction, unit, rootmtype, rootdata, leafmtype, leafdata, op));
  try {
    send(*link);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "PetscSF ghostwire: %s Begin failed: %s", name(direction), e.what());
  }
  ++(direction == Direction::bcast ? counts_.bcast : counts_.reduce);
  *taken = PETSC_TRUE;
  PetscFunctionReturn(0);
}

// The in-flight operation an End with these arguments ends: the oldest Begun that matches (PETSc
// may have several with the same arguments in flight), or null.
CoreLink* CoreFastPath::oldest_in_flight(Direction direction, MPI_Datatype unit, const void* rootdata,
                                         const void* leafdata) const {
  CoreLink* found = nullptr;
  for (const auto& link : links_)
    if (link->in_use && link->direction == direction && link->unit == unit && link->rootdata == rootdata &&
        link->leafdata == leafdata && (!found || link->begun < found->begun))
      found = link.get();
  return found;
}

PetscErrorCode CoreFastPath::end(Direction direction, MPI_Datatype unit, const void* rootdata, const void* leafdata,
                                 MPI_Op op, PetscBool* taken) {
  CoreLink* found = oldest_in_flight(direction, unit, rootdata, leafdata);
  PetscFunctionBegin;
  *taken = found ? PETSC_TRUE : PETSC_FALSE;
  if (!found) PetscFunctionReturn(0);
  try {
    receive(*found);
    prefetch_sends(*found);
  } catch (const std::exception& e) {
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "PetscSF ghostwire: %s End failed: %s", name(direction), e.what());
  }
  PetscCall(remote_end(remote_, direction, unit, rootdata, leafdata, op));
  found->in_use = false;
  PetscFunctionReturn(0);
}

}  // namespace gwpetsc
