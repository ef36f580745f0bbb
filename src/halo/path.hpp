// SPDX-License-Identifier: BSD-3-Clause
// The message path interface: what the plan core calls and never looks behind. A path type
// (PathType, one per file or folder under halo/paths/, registered in halo/path_registry.cpp) says
// when it applies to one direction of a slot, what memory it needs there, what it tells the other
// side at commit, builds the slot's sending or receiving object (SendPath, ReceivePath) and keeps
// its plan-wide state (PathPlanState). docs/internals/paths.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace ghostwire {
struct PlanTraffic;
}

namespace ghostwire::detail {

struct PlanState;
struct SendSlot;
struct ReceiveSlot;
struct SlotBuild;
struct PieceSpec;
struct MemoryMove;
class WireWriter;

// Who posts a message: send() promises test_send an acknowledgement from the receiver; start()
// and exchange() wait for what they need at their own end.
enum class Post { by_send, by_exchange };
// How a receive is done: copied into the receive layout (test_recv, wait_recv), read in place where
// the slot has a view (test_recv_in_place), or as part of an exchange (finish).
enum class Receipt { copy, in_place, exchange };

// The sending side of one slot's messages.
class SendPath {
 public:
  virtual ~SendPath() = default;
  virtual void post(PlanState& p, SendSlot& slot, Post how) = 0;
  // The receiver is done with the last message: the sent data may change, the slot may send again.
  virtual bool acknowledged(PlanState& p, SendSlot& slot) = 0;
  // What start() waits for before posting the next message.
  virtual bool ready_for_next(PlanState& p, SendSlot& slot) = 0;
  // What finish() waits for after the receives.
  virtual bool exchange_done(PlanState& p, SendSlot& slot) = 0;
  // Plan::prefetch_send: asks for the line of the acknowledgement the next send checks, and of up to
  // `bytes` of where the next message is written (a hint; nothing for paths that need no line).
  virtual void prefetch_next(const SendSlot&, std::size_t) const {}
  virtual std::string describe_wait(const PlanState& p, const SendSlot& slot) const = 0;
  // Why send() refuses to send again before test_send() is true.
  virtual std::string not_acknowledged_hint(const SendSlot&) const {
    return "has not been acknowledged by the receiver yet; call wait_send before sending again";
  }
  // The plan goes (after its paths' plan-wide drain): free MPI objects.
  virtual void release(PlanState&, SendSlot&) {}
  // Plan::rebind moves a private region of this rank between exchanges: why this end cannot follow
  // it now ("" if it can), then, on every slot once all can, follow: the addresses it keeps in the
  // region move. A path that keeps none of the region's addresses follows by doing nothing; one
  // that does not override these refuses, naming itself.
  virtual std::string cannot_follow(const PlanState& p, const SendSlot& slot, const MemoryMove& move) const;
  virtual void follow(PlanState&, SendSlot&, const MemoryMove&) {}
};

// The receiving side.
class ReceivePath {
 public:
  virtual ~ReceivePath() = default;
  // The caller asks for the next message: the ghost cells are the plan's until it is received.
  virtual void hand_over(PlanState&, ReceiveSlot&) {}
  virtual bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) = 0;
  // Where the last message can be read in place (Plan::view), or null.
  virtual const std::byte* view() const { return nullptr; }
  // Plan::prefetch_recv: asks for the lines of the next message's arrival and of up to `bytes` of
  // the message where it will be read in place (a hint; nothing for paths that copy it in).
  virtual void prefetch_next(const ReceiveSlot&, std::size_t) const {}
  // Done reading a message held in place (only paths with a view hold messages).
  virtual void release_held(PlanState&, ReceiveSlot&) {}
  // Plan::acknowledge (acknowledge_by_reply): acknowledge every consumed message now.
  virtual void acknowledge(const PlanState&, const ReceiveSlot&) const {}
  virtual std::string describe_wait(const PlanState& p, const ReceiveSlot& slot) const = 0;
  virtual void release(PlanState&, ReceiveSlot&) {}
  // As SendPath's.
  virtual std::string cannot_follow(const PlanState& p, const ReceiveSlot& slot, const MemoryMove& move) const;
  virtual void follow(PlanState&, ReceiveSlot&, const MemoryMove&) {}
};

// A path type's state for one plan, made by PathType::prepare on every rank.
class PathPlanState {
 public:
  virtual ~PathPlanState() = default;
  // Commit, once the slots have agreed on their paths and before they are built: how many send and
  // receive slot directions (parts) took this path.
  virtual void before_build(PlanState&, std::size_t /*sends*/, std::size_t /*receives*/) {}
  // Commit, after every slot is built.
  virtual void after_build(PlanState&) {}
  // Called by the plan's calls and waits (and, where the state asks for it, the world's): work
  // the path owes, such as messages waiting for a receiver. Must be cheap when there is none.
  virtual bool has_progress() const { return false; }
  virtual void progress(PlanState&) {}
  // Collective, as the plan goes, before its slots are released: every message delivered.
  virtual void drain(PlanState&) {}
  // The plan goes; called on every rank after the slots are released (not collective).
  virtual void release(PlanState&) {}
  // Lines for Plan::describe() ("  ...\n", or none), and what this path sends per exchange when its
  // slots' messages are not their own (Plan::traffic).
  virtual void describe(const PlanState&, std::ostream&) const {}
  virtual void add_traffic(const PlanState&, PlanTraffic&) const {}
};

// One direction of one slot (or of one part of a split message), as this rank sees it: the facts
// a path's choice and memory depend on, computed once at commit.
struct SlotSide {
  const PlanState* plan = nullptr;
  std::size_t slot = 0;  // neighbour index x channels + channel
  int rank = -1;         // the neighbour
  bool sending = false;
  bool between_nodes = false;  // the neighbour is on another (possibly emulated) node
  bool to_self = false;        // a message to this rank itself (periodic boundaries)
  bool split_part = false;     // one of two parts of a split message (commit/slot_parts.hpp)
  bool in_segments = false;    // every piece in a Segment, so a node peer can map it
  bool dense = false;          // at least half of every cache line the pieces touch is message data
  bool cores_shared = false;   // more ranks (threads) than cores here, plan not acknowledged by reply
  bool acknowledge_by_reply = false;
  std::size_t bytes = 0;  // of one message
  const std::vector<PieceSpec>* pieces = nullptr;
};

// How a path is being considered: by the automatic choice, or because GHOSTWIRE_INTRA_PATH names
// it (then it takes every slot it can serve at all).
enum class Choice { automatic, forced };

// Memory of one slot direction: in the plan segment (node peers map it; the other side learns its
// offset) and in private memory. Each is 64-byte aligned.
struct SlotMemory {
  std::size_t segment_bytes = 0;
  std::size_t private_bytes = 0;
};

class PathType {
 public:
  virtual ~PathType() = default;
  // Short name: GHOSTWIRE_INTRA_PATH's value, error messages ("in-place").
  virtual const char* name() const = 0;
  // What Plan::describe() says of a slot on this path.
  virtual const char* description() const = 0;
  virtual bool between_nodes() const = 0;
  // Waits on its slots must call the world's progress (a one-sided transport's).
  virtual bool served_by_world_progress() const { return false; }
  // The receiver reads the sent data itself, so finish() waits for it (else a later send() does).
  virtual bool receiver_reads_sent_data() const { return false; }
  // The receiver must offer it too (it states something about its side in its section), else the
  // sender's choice decides alone. Such paths never carry a part of a split message.
  virtual bool needs_receiver_consent() const { return false; }
  // The receiver lays out memory for it before it knows the sender's choice: both sides must
  // reach the same choice from their own facts (a plan-wide choice, as between nodes).
  virtual bool receiver_prepares() const { return false; }
  // Its slots' messages are counted by its plan state (Plan::traffic), not slot by slot.
  virtual bool counts_own_traffic() const { return false; }
  // Notification ids it needs per slot in the plan segment (for the largest rank's slot count).
  virtual std::size_t notifications_per_slot() const { return 0; }

  // Commit, collective, on every rank, in registry order: the path's plan-wide state (null if it
  // keeps none). `largest_slot_count` is the largest slot count of any rank of the plan.
  virtual std::unique_ptr<PathPlanState> prepare(PlanState&, std::size_t /*largest_slot_count*/,
                                                 const std::string& /*context*/) const {
    return nullptr;
  }
  // Whether this side can take the path (`state`: its plan-wide state, or null).
  virtual bool offers(const SlotSide& side, Choice how, const PathPlanState* state) const = 0;
  // A reason this side cannot travel on the path after all ("" if it can): reported on every rank.
  virtual std::string refuse(const SlotSide&) const { return {}; }
  virtual SlotMemory memory(const SlotSide&) const { return {}; }
  // What this side tells the other about itself (its section of the commit descriptor; where its
  // memory is, the core tells).
  virtual void describe_side(const SlotSide&, WireWriter&) const {}
  virtual std::uint64_t section_version() const { return 1; }
  virtual std::unique_ptr<SendPath> build_send(const SlotBuild& build) const = 0;
  virtual std::unique_ptr<ReceivePath> build_receive(const SlotBuild& build) const = 0;
};

}  // namespace ghostwire::detail
