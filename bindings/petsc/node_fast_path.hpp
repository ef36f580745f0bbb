// SPDX-License-Identifier: BSD-3-Clause
// The fast path between ranks of one node; edges between nodes go through `remote`, a basic SF of
// only those edges, alongside (null when no rank has such an edge). Each in-flight operation holds
// a link: a ghostwire Segment whose part on every rank holds two halves, used in turn by the
// link's operations (so that an operation need not wait for the readers of the one before), each
// with that rank's packed units for its peers; and per half h, the Segment's notifications:
//   data slot [h*size+sender]     "my packed units for you are ready" (root to leaf in Bcast, leaf
//                                 to root in Reduce)
//   ack slot  [(2+h)*size+reader] "done reading your half h": it may be packed again
// The sender packs in Begin and notifies; the receiver, in End, waits for each peer in a fixed order
// (the order of ranks PETSc's basic SF uses), combines the peer's packed units straight from the
// peer's part into its own array with the MPI_Op, and acknowledges.
// A message may instead go by cross-memory attach (transfer.hpp): the sender packs nothing, puts its
// array's address in the header at the start of its part and notifies with `read_array`; the
// receiver reads the units straight from the sender's array (process_vm_readv) and acknowledges,
// and the sender's End waits for those acknowledgements (its array is the user's again after End).
#pragma once

#include <ghostwire/segment.hpp>
#include <ghostwire/world.hpp>

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "fast_ops.hpp"
#include "node_graph.hpp"
#include "fast_path.hpp"
#include "transfer.hpp"
#include "unit.hpp"

namespace gwpetsc {

// The header at the start of every half of a rank's part of a link: where its array is, for readers.
struct LinkHeader {
  std::uint64_t address;
};
constexpr std::size_t header_bytes = 64;  // a cache line: the packed units start after it
constexpr std::size_t page_bytes = 4096;

// Notification values on the data slot: units packed in my part, or read them from my array.
constexpr ghostwire::NotificationValue staged = 1, read_array = 2;

struct Link {
  std::unique_ptr<ghostwire::Segment> segment;
  std::size_t capacity = 0;  // bytes per unit it can hold
  std::size_t half_bytes = 0;  // of a half: the header and the packed units
  std::uint64_t uses = 0;      // operations begun on this link (the same count on every rank)
  int half = 0;                // the half this operation packs into and reads from
  bool in_use = false;
  std::uint64_t begun = 0;   // order of Begin among in-flight operations: End takes the oldest match
  Direction direction = Direction::bcast;
  MPI_Datatype unit = MPI_DATATYPE_NULL;
  const void* rootdata = nullptr;
  const void* leafdata = nullptr;
  Unit decoded;
  UnpackFunction unpack = nullptr;
  CombineRun combine = nullptr;
  bool direct_self = false;  // my own units go without staging (root and leaf arrays differ)
  std::vector<int> readers[2];  // by half: peers that may still read it, whose acknowledgements are due
  std::vector<int> array_readers;  // peers reading my array: End waits for their acknowledgements
  std::vector<std::byte> self_staged;  // my own units, when root and leaf arrays overlap
};

class NodeFastPath final : public FastPath {
 public:
  NodeFastPath(ghostwire::World& world, NodeGraph graph, PetscSF remote);
  ~NodeFastPath() override;
  PetscErrorCode destroy_remote() override { return PetscSFDestroy(&remote_); }
  PetscErrorCode begin(Direction direction, MPI_Datatype unit, PetscMemType rootmtype, const void* rootdata,
                       PetscMemType leafmtype, const void* leafdata, MPI_Op op, PetscBool* taken) override;
  PetscErrorCode end(Direction direction, MPI_Datatype unit, const void* rootdata, const void* leafdata, MPI_Op op,
                     PetscBool* taken) override;
  bool crosses_nodes() const override { return remote_ != nullptr; }
  bool busy() const override {
    for (const auto& link : links_)
      if (link->in_use) return true;
    return false;
  }
  Counts counts() const override {
    Counts c = counts_;
    c.links = static_cast<long>(links_.size());
    return c;
  }

 private:
  Link& acquire(std::size_t unit_bytes);
  Link& start(Direction direction, MPI_Datatype unit, const void* rootdata, const void* leafdata, const Unit& decoded,
              UnpackFunction unpack, CombineRun combine);
  const DirectionRuns& runs(const Link& link) const {
    return link.direction == Direction::bcast ? bcast_runs_ : reduce_runs_;
  }
  void wait_for_readers(Link& link);
  void send(Link& link, MPI_Op op);
  void receive(Link& link, MPI_Op op);
  void stage_self(Link& link, const void* data, const DirectionRuns& r);
  void combine_from(const Link& link, std::size_t p, void* data, const void* units) const;
  void prefetch_arrivals(const Link& link) const;
  void prefetch_acknowledgements(const Link& link) const;
  void read_peer(const Link& link, std::size_t p, void* data, MPI_Op op);
  void wait_for_array_readers(Link& link);
  std::size_t units_sent_at_most() const;

  ghostwire::World& world_;
  NodeGraph graph_;
  DirectionRuns bcast_runs_, reduce_runs_;
  PetscSF remote_ = nullptr;
  std::vector<std::unique_ptr<Link>> links_;
  std::uint64_t begun_ = 0;
  Counts counts_;
  std::vector<std::byte> scratch_;  // a peer's units read by cross-memory attach, to be combined
};

}  // namespace gwpetsc
