// SPDX-License-Identifier: BSD-3-Clause
// The fast path on the halo core's message paths. Each in-flight operation holds a link: a
// ghostwire Plan over this rank's node peers for one direction and unit size, one message per peer
// I send to, my units of it taken from my array (a private region of the plan, rebound to each
// operation's array). The core's path carries it (staged: packed by me into my shared staging, one
// half per message, so the next operation need not wait for this one's readers); the receiver
// reads each message where it is (ReceiveEnd::read_in_place), combining it into its array with the
// MPI_Op in PETSc's rank order. A Bcast that replaces (MPI_REPLACE: each leaf has one root, so no
// order to keep) receives into the leaf array itself (a second private region, rebound likewise),
// so that a message the path copies (cross-memory attach) lands in place: one copy. The plans' slots
// are taken once as slot ends (slot_end.hpp). Edges
// between nodes go through `remote`, a basic SF of only those edges; a rank's own units never leave
// the process.
#pragma once

#include <ghostwire/plan.hpp>
#include <ghostwire/world.hpp>

#include <cstdint>
#include <memory>
#include <vector>

#include "fast_ops.hpp"
#include "fast_path.hpp"
#include "node_graph.hpp"
#include "unit.hpp"

namespace gwpetsc {

// Memory a plan's region points at until an operation moves it onto the user's array: as large as
// that array (the region's size), allocated but never written, so its pages are never mapped in
// (a ring's root array may hold 100 million units, of which a rank sends a few).
class Untouched {
 public:
  std::byte* reserve(std::size_t bytes) {
    if (!bytes_) bytes_ = std::make_unique_for_overwrite<std::byte[]>(size_ = bytes);
    return bytes_.get();
  }
  std::byte* data() const { return bytes_.get(); }
  std::size_t size() const { return size_; }

 private:
  std::unique_ptr<std::byte[]> bytes_;
  std::size_t size_ = 0;
};

// One of a link's two plans: operations on the link take them in turn, so that an operation waits
// only for the readers of the one two before it (as with the staging's own halves for start()).
struct CorePlan {
  std::unique_ptr<ghostwire::Plan> plan;
  ghostwire::Region source;
  const void* bound = nullptr;         // the array the source region points at
  // Into place (CoreLink::into_place): the target region, on the leaf array's received units when
  // they are apart from the root units peers read, else on the link's scratch, and where it points.
  ghostwire::Region target;
  const void* target_bound = nullptr;
  bool target_in_place = false;
  // The plan's slots found once, by position in the sending (receiving) side's peers; my own
  // position has none.
  std::vector<ghostwire::SendEnd> send_to;
  std::vector<ghostwire::ReceiveEnd> receive_from;
};

// The units of my array a link's plans touch (first, count): their regions cover only those, since
// PETSc may hand over an array pointer offset from its allocation (a section's atlas at -pStart),
// of which only the units the graph names are memory.
struct Span {
  PetscInt first = 0, count = 0;
};

struct CoreLink {
  Direction direction = Direction::bcast;
  std::size_t unit_bytes = 0;
  bool into_place = false;  // a Bcast with MPI_REPLACE: messages received into the leaf array
  Span sent, received;      // of my source array, sent to peers; of my leaf array, received into place
  // Where a plan copies a message it does not hand over in place: `arrivals`, by peer, or into
  // place the leaf array or `scratch` laid out as it (and written only there). Shared by the two
  // plans: a link's operations receive one after another, and the cache keeps one of them. The
  // source regions point at `placeholder` until an operation rebinds them.
  std::vector<std::byte> arrivals;
  Untouched scratch, placeholder;
  CorePlan plans[2];
  std::uint64_t uses = 0;  // operations begun on this link (the same count on every rank)
  int turn = 0;            // the plan of the operation in flight
  bool sends = false;      // whether I send any message on this link
  long staged = 0, read = 0;  // my messages per operation: packed by me, read from my array
  // The operation in flight.
  bool in_use = false;
  std::uint64_t begun = 0;  // order of Begin among in-flight operations: End takes the oldest match
  MPI_Datatype unit = MPI_DATATYPE_NULL;
  const void* rootdata = nullptr;
  const void* leafdata = nullptr;
  Unit decoded;
  UnpackFunction unpack = nullptr;
  CombineRun combine = nullptr;
  bool direct_self = false;            // my own units go without staging (root and leaf arrays differ)
  std::vector<std::byte> self_staged;  // my own units, when root and leaf arrays overlap
};

class CoreFastPath final : public FastPath {
 public:
  CoreFastPath(ghostwire::World& world, NodeGraph graph, PetscSF remote);
  ~CoreFastPath() override;
  PetscErrorCode destroy_remote() override { return PetscSFDestroy(&remote_); }
  PetscErrorCode begin(Direction direction, MPI_Datatype unit, PetscMemType rootmtype, const void* rootdata,
                       PetscMemType leafmtype, const void* leafdata, MPI_Op op, PetscBool* taken) override;
  PetscErrorCode end(Direction direction, MPI_Datatype unit, const void* rootdata, const void* leafdata, MPI_Op op,
                     PetscBool* taken) override;
  bool crosses_nodes() const override { return remote_ != nullptr; }
  bool busy() const override;
  Counts counts() const override;

 private:
  CoreLink& acquire(Direction direction, std::size_t unit_bytes, bool into_place);
  CoreLink* oldest_in_flight(Direction direction, MPI_Datatype unit, const void* rootdata, const void* leafdata) const;
  std::unique_ptr<CoreLink> make_link(Direction direction, std::size_t unit_bytes, bool into_place) const;
  void make_plan(CoreLink& link, CorePlan& made) const;
  void add_receives(CoreLink& link, CorePlan& made) const;
  const char* forced_path(const CoreLink& link) const;
  void bind(CoreLink& link, CorePlan& turn, const void* data);
  void count_paths(CoreLink& link) const;
  const DirectionRuns& runs(const CoreLink& link) const {
    return link.direction == Direction::bcast ? bcast_runs_ : reduce_runs_;
  }
  void send(CoreLink& link);
  void receive(CoreLink& link);
  void wait_sends_taken(CoreLink& link);
  void prefetch_arrivals(CoreLink& link) const;
  void prefetch_sends(CoreLink& link) const;
  void take(const CoreLink& link, std::size_t p, void* data, const std::byte* view) const;
  const std::byte* arrival(const CoreLink& link, const Side& side, std::size_t p) const;
  void stage_self(CoreLink& link, const void* data);
  void combine_from(const CoreLink& link, std::size_t p, void* data, const void* units) const;

  ghostwire::World& world_;
  NodeGraph graph_;
  std::vector<int> neighbours_;  // my node peers on either side, each once
  DirectionRuns bcast_runs_, reduce_runs_;
  PetscSF remote_ = nullptr;
  std::vector<std::unique_ptr<CoreLink>> links_;
  std::uint64_t begun_ = 0;
  Counts counts_;
};

}  // namespace gwpetsc
