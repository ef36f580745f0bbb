// SPDX-License-Identifier: BSD-3-Clause
// Plan: a halo exchange built once and run many times (ghostwire's "shared notifications").
//
// A plan connects this rank with a list of neighbour ranks through `channels` independent message
// slots per neighbour (channels replace MPI tags). For each (channel, neighbour) a send layout and
// a receive layout say which elements of registered memory form the message. After commit():
//
//  - Intra-node, send() is a release store of a counter: no copy. The receiver copies straight
//    from the sender's live data into its ghost cells (one copy in total) and acknowledges
//    ("in place"). This needs the sender's data in a Segment and dense; sparse data (an index
//    list, a column) and data in private memory are packed into a shared staging buffer first
//    (two copies, "staged"). When the receiver's ghost cells are dense and in a Segment, the sender
//    instead writes a sparse message straight into them ("pushed": one copy), if the receiver has
//    asked for the message already, and stages it otherwise. A message with both dense and sparse
//    pieces (a grid's rows and columns to one neighbour) goes in two parts: the dense pieces in
//    place, the rest staged.
//  - Inter-node, send() packs into a buffer and sends it: as a persistent two-sided MPI message
//    (the default transport; ghost cells that are one contiguous run received by exchange() or
//    finish() take it straight), or as a notified write into a double-buffered slot at the receiver
//    (the one-sided transport, GHOSTWIRE_TRANSPORT=rma, or when the plan's tags would pass
//    MPI_TAG_UB). Small messages between nodes travel combined: all those from one node to another
//    on a channel as one message per exchange, packed and unpacked through node-shared memory
//    (Plan::aggregate). describe() names every slot's path.
//
// Ghost cells and the calls that fill them: from the call that asks for a slot's next message
// (test_recv, wait_recv, test_recv_in_place; start() and exchange() for all their slots) until
// the call that returns it (a test_recv that returns true, wait_recv, finish(), exchange()), the
// slot's ghost cells may change at any time (a node peer pushes into them, MPI receives into
// them): read them only when their message has been received.
//
// test_send()/wait_send() are true once the receiver has acknowledged the last message of the
// slot: then the sender may modify the sent data and send again. Sending again before that is an
// error (Errc::state). exchange() runs all slots and returns when every ghost cell is filled and
// every neighbour has finished reading this rank's data.
//
// Threads (docs/plans.md, "Threads"): the slots of one plan may be driven from different threads at
// once, each direction of each (channel, neighbour), and each partition of it, by one thread at a
// time (with acknowledge_by_reply both directions together); start(), finish() and exchange() by
// one thread while no other call of the plan runs; exchange_share() by a team. A second thread on
// the same slot is refused (Errc::state), never let in. Slots between nodes call MPI and need the
// World's thread level to allow it (World::thread_level()); node peers' slots never call MPI and
// take no lock.
//
// Partitions (docs/plans.md, "Partitions"; MPI-4's Psend/Pready/Parrived in spirit): a message may
// be cut into partitions before commit, each sent by pready() as soon as its data is final, from
// any thread, and tested by parrived() on arrival; send() and the receive calls take all of them.
//
// Two options for slot-by-slot protocols where every copy and every acknowledgement counts (a
// pipelined wavefront sends thousands of tiny messages per sweep; docs/plans.md):
//  - Reading in place (view(), test_recv_in_place(), release()): a node peer's message is read
//    where the sender keeps it, not copied into ghost cells (zero copies).
//  - Acknowledgement by reply (acknowledge_by_reply()): a node peer's acknowledgement rides on
//    the next message it sends back on the same slot instead of a store of its own.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "ghostwire/combine.hpp"
#include "ghostwire/layout.hpp"
#include "ghostwire/segment.hpp"
#include "ghostwire/slot_end.hpp"
#include "ghostwire/world.hpp"

namespace ghostwire {

namespace detail {
struct PlanState;
}

// A registered memory region, returned by Plan::add_memory.
struct Region {
  int id = -1;
};

// What one exchange() of a committed plan sends from one rank: messages (a message split in parts,
// or partitions combined into one, count once) and their payload bytes, to other nodes and to node
// peers. Data messages only: send() on a two-sided slot may also ask for an acknowledgement; the
// reverse exchange sends one message back for each one received here. Messages combined per pair
// of nodes (Plan::aggregate) count once, for the rank that sends the combined message, with
// their payload bytes (padding to 8 bytes per part and the trailer not counted).
struct PlanTraffic {
  std::size_t inter_node_messages = 0;
  std::size_t inter_node_bytes = 0;
  std::size_t node_peer_messages = 0;
  std::size_t node_peer_bytes = 0;
};

class Plan {
 public:
  // Collective at commit(), not here. `neighbours` must be distinct ranks (this rank may be its
  // own neighbour); the relation must be symmetric: if A lists B, B lists A.
  Plan(World& world, std::span<const int> neighbours, std::size_t channels = 1);
  Plan(World& world, std::initializer_list<int> neighbours, std::size_t channels = 1)
      : Plan(world, std::span<const int>(neighbours.begin(), neighbours.size()), channels) {}
  ~Plan();  // collective if committed
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;

  // Memory layouts refer to, as elements of `element_size` bytes. Memory in a Segment can be read
  // by node peers in place; private memory is staged.
  Region add_memory(Segment& segment, std::size_t element_size, std::size_t offset_bytes = 0,
                    std::size_t bytes = static_cast<std::size_t>(-1));
  Region add_memory(void* base, std::size_t bytes, std::size_t element_size);
  // The region's memory is now at `base` (as many bytes as before): before commit, simply that;
  // after it, every later message reads and writes the new array, as if the plan had been built on
  // it (two arrays swapped every step, an array reallocated). Local: each rank moves its own
  // regions, when it likes, but only between exchanges (no start() without its finish(), no send
  // unfinished, no reverse exchange under way: Errc::state), never concurrently with another call on
  // the plan, and only private memory (a region in a Segment, whose memory node peers map, or one
  // sharing memory with another region: Errc::invalid_argument). Costs a pass over the plan's copy
  // lists. docs/plans.md, "Arrays that move".
  Plan& rebind(Region region, void* base);

  // Appends `layout` over `region` to the message of (channel, neighbour). A message may consist of
  // several pieces (e.g. several variables); both sides must agree on the sequence of element
  // sizes and counts.
  Plan& add_send(std::size_t channel, int neighbour, Region region, const Layout& layout);
  Plan& add_receive(std::size_t channel, int neighbour, Region region, const Layout& layout);

  // Before commit(), on both sides of every slot (commit() checks): between node peers, a
  // receiver acknowledges what it has consumed with its next send() on the same (channel,
  // neighbour), in the same counter store, instead of a store of its own; test_send() then needs
  // no load from the other core. A receiver that has nothing to send back acknowledges with
  // acknowledge() (the last message of a run); slots it only receives on are acknowledged at once.
  // exchange(), start() and finish() acknowledge at once as always. Between nodes over the two-sided
  // transport no acknowledgement is sent at all: the message was packed at send() and MPI's matching
  // protects the receiver's buffers, so test_send() is true once MPI has the message. One-sided
  // (GHOSTWIRE_TRANSPORT=rma) inter-node slots keep their acknowledgements.
  Plan& acknowledge_by_reply();

  // Before commit, the same on every rank: whether this plan's messages between two nodes travel
  // combined into one message per pair of nodes and channel per exchange (Aggregation::node), each
  // on its own (off), or as Settings::aggregation (GHOSTWIRE_AGGREGATE) says, which by default
  // (automatic) combines small ones. describe() says what was chosen and why. Plans combine only
  // over the two-sided transport, without partitions or acknowledge_by_reply. With exchange(),
  // start() and finish() no call waits for more than its own messages, except the rank that sends
  // or receives a pair's combined message for its node, which waits for that message too. The
  // slot-by-slot calls work as well, but a combined message moves only while that rank is in a
  // ghostwire call (docs/plans.md, "One message per pair of nodes").
  Plan& aggregate(Aggregation mode);

  // Before commit: the path between node peers this plan takes for every slot it can serve, by
  // its name in describe() ("staged", "cross-memory", a path the program registered), as
  // GHOSTWIRE_INTRA_PATH does for every plan; "auto" for the automatic choice whatever the
  // settings say. A name no path has is an error at commit (docs/internals/paths.md).
  Plan& intra_path(const std::string& name);

  // Before commit, on both sides: the message of (channel, neighbour) that this rank sends (receives)
  // cut into partitions, given as element counts in message order that add up to the message's
  // elements, or as `count` partitions as equal as can be (the first ones one element longer). The
  // receiver must cut the message into the same partitions (commit checks, naming both ranks). Each
  // partition then travels as a message of its own, by the same paths as any message.
  Plan& partition_send(std::size_t channel, int neighbour, std::span<const std::size_t> elements);
  Plan& partition_send(std::size_t channel, int neighbour, std::size_t count);
  Plan& partition_receive(std::size_t channel, int neighbour, std::span<const std::size_t> elements);
  Plan& partition_receive(std::size_t channel, int neighbour, std::size_t count);
  std::size_t send_partitions(std::size_t channel, int neighbour) const;     // 1 unless partitioned
  std::size_t receive_partitions(std::size_t channel, int neighbour) const;

  // Collective over the world: checks both sides of every slot agree and allocates the buffers.
  // Every mismatch is reported on both ranks it involves; all ranks throw together.
  void commit();
  bool committed() const;
  // From commit on: the send (receive) of (channel, neighbour), found once, for the calls a protocol
  // makes on it every exchange (slot_end.hpp). Errors as send() (test_recv()) would raise them.
  SendEnd send_end(std::size_t channel, int neighbour);
  ReceiveEnd receive_end(std::size_t channel, int neighbour);

  // On a partitioned message these take every partition.
  void send(std::size_t channel, int neighbour);
  // send() if the receiver has taken the last message of the slot (test_send() is true), else
  // false without sending: one call where test_send() and send() would be two.
  bool try_send(std::size_t channel, int neighbour);
  bool test_recv(std::size_t channel, int neighbour);
  void wait_recv(std::size_t channel, int neighbour);
  bool test_send(std::size_t channel, int neighbour);
  void wait_send(std::size_t channel, int neighbour);

  // Partition `partition` of the message to `neighbour` is final: it is sent (send() for one
  // partition: its previous message must have been acknowledged). Any thread, one per partition.
  void pready(std::size_t channel, int neighbour, std::size_t partition);
  // test_send and wait_send for one partition: its data may change again.
  bool test_send(std::size_t channel, int neighbour, std::size_t partition);
  void wait_send(std::size_t channel, int neighbour, std::size_t partition);
  // Whether partition `partition` of the message from `neighbour` has arrived; if so it is in the
  // receive layout now (test_recv for one partition). Partition 0 of an unpartitioned message is
  // the whole message.
  bool parrived(std::size_t channel, int neighbour, std::size_t partition);

  // Zero-copy receive. view(c, n) is where the message of (c, n) can be read without copying it:
  // the node peer's data itself when it is one contiguous run in a Segment (or, when the peer
  // packs, the half of its double staging buffer the last message received went to: ask again
  // after each test_recv_in_place), else nullptr (another node, or a pushed slot: the message is
  // copied into the ghost cells).
  const std::byte* view(std::size_t channel, int neighbour) const;
  // A hint for a receiver with other work before it reads the next message of (c, n) in place:
  // asks for the lines of its arrival and of up to `bytes` of it where it will be read (a line the
  // sender writes later is fetched again). Does nothing where the message is copied in.
  void prefetch_recv(std::size_t channel, int neighbour, std::size_t bytes = static_cast<std::size_t>(-1));
  // The same for a sender with other work before its next send() on (c, n): asks for the line of
  // the acknowledgement that send checks, and to write up to `bytes` of where the message is packed.
  void prefetch_send(std::size_t channel, int neighbour, std::size_t bytes = static_cast<std::size_t>(-1));
  // test_recv for a slot with a view(): marks the next message received without copying it; the
  // caller reads it at view() and must call release() when done, before which the sender cannot
  // reuse its data. For a slot without a view this is test_recv (copied and consumed).
  bool test_recv_in_place(std::size_t channel, int neighbour);
  // The same, waiting until the message has arrived; returns view(c, n).
  const std::byte* wait_recv_in_place(std::size_t channel, int neighbour);
  // Done reading the message received in place: acknowledges it (with acknowledge_by_reply, with
  // the next send() on the slot or acknowledge()). No-op if the last message was copied.
  void release(std::size_t channel, int neighbour);
  // wait_recv_in_place, use(view(c, n)), release() in one call: `use` reads the message where it
  // is (nullptr: it was copied into the receive layout) and must not call this plan for (c, n).
  // The message is released whether `use` returns or throws.
  template <class Use>
  void read_in_place(std::size_t channel, int neighbour, Use&& use) {
    read_in_place(channel, neighbour, &detail::call_reader<std::remove_reference_t<Use>>, &use);
  }
  void read_in_place(std::size_t channel, int neighbour, void (*use)(void* context, const std::byte* message),
                     void* context);
  // With acknowledge_by_reply: acknowledges every consumed message of (c, n) now, for the last
  // message of a run, which no send() answers. Without it acknowledgements are sent at once and
  // this does nothing.
  void acknowledge(std::size_t channel, int neighbour);

  // All slots with a layout; or only one channel.
  void exchange();
  void exchange(std::size_t channel);
  void start();
  void start(std::size_t channel);
  void finish();
  void finish(std::size_t channel);
  // finish() without waiting: takes the messages that have arrived and returns true once the
  // exchange is finished (as finish() would return), false otherwise; call it again, or finish().
  // Only after start() (of the same channel); a true ends the exchange.
  bool test_finish();
  bool test_finish(std::size_t channel);
  // One exchange() shared by a team of threads: thread `thread` of `threads` runs start() and
  // finish() for every threads-th (channel, neighbour), both directions. Every thread of the team
  // calls it once with its own `thread`; together they do what exchange() does. A thread's call
  // returns when its share is done: the team needs a barrier before it (the sent data must be
  // final) and one after it (before any thread reads ghost cells), as HaloUpdate::run_shared has.
  void exchange_share(std::size_t thread, std::size_t threads);

  // The reverse exchange (docs/plans.md, "Reverse exchange"): every receive layout's values go back
  // to the rank that sent them and are combined into the elements of its send layout they came
  // from, as `how` says (sum, min, max or replace, as float64, float32, int32 or int64 values: an
  // element of N bytes holds N / size of the type of them). The owned element's value comes first;
  // then, in a fixed order (by neighbour rank, channel and message order), every value sent back for
  // it, so results are the same run to run. `per_region`: one Combine for every region in
  // add_memory order. Split-phase like start() and finish(): between reverse_start and
  // reverse_finish the ghost cells must not change and the owned elements sent must not be read.
  // Not while a forward exchange of the plan is under way.
  //
  // enable_reverse() on every rank: before commit() (which then builds it), or after it, when it is
  // collective over the world and builds it at once. It costs a second plan's commit and memory.
  Plan& enable_reverse();
  bool reverse_enabled() const;
  void reverse_exchange(Combine how);
  void reverse_exchange(std::span<const Combine> per_region);
  void reverse_start();
  void reverse_finish(Combine how);
  void reverse_finish(std::span<const Combine> per_region);

  // These, like every call of a moved-from Plan, raise Errc::state.
  World& world() const;
  const std::vector<int>& neighbours() const;
  std::size_t channels() const;  // as given to the constructor (partitions do not count)
  int id() const;
  // One line per slot in use: direction, neighbour, bytes and path (intra-node in place, staged or
  // pushed; inter-node two-sided message or notified write), how inter-node slots travel and why,
  // and traffic()'s counts.
  std::string describe() const;
  // After commit: the name of the path the message of (channel, neighbour) takes from this rank
  // (to it), as describe() and GHOSTWIRE_INTRA_PATH name it; a message in two parts names both
  // ("in-place+staged").
  std::string send_path(std::size_t channel, int neighbour) const;
  std::string receive_path(std::size_t channel, int neighbour) const;
  // What one exchange() of the committed plan sends from this rank (Errc::state before commit).
  PlanTraffic traffic() const;

 private:
  std::unique_ptr<detail::PlanState> state_;
};

// Builds a one-channel plan from ghost descriptions alone, as PetscSF does: ghost entry i of
// `ghosts` is element ghost_index[i] of rank ghost_owner[i]'s `owned` memory. One collective works
// out which owned elements every rank must send. Both regions hold elements of `element_size`.
// `aggregation`, the same on every rank, is handed to Plan::aggregate before the plan is committed;
// without it the plan follows Settings::aggregation (GHOSTWIRE_AGGREGATE).
struct GhostMap {
  std::vector<int> owner;             // owning rank of each ghost entry
  std::vector<std::size_t> index;     // element index on the owner
};
Plan make_unstructured_plan(World& world, Segment& owned, std::size_t owned_offset_bytes, std::size_t owned_count,
                            void* ghosts, const GhostMap& map, std::size_t element_size,
                            std::optional<Aggregation> aggregation = std::nullopt);

}  // namespace ghostwire
