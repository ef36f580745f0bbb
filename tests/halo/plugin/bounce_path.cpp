// SPDX-License-Identifier: BSD-3-Clause
// The bounce path (bounce_path.hpp): between node peers, the sender packs message k into half
// k % 2 of its shared memory and posts it; the receiver copies the whole message into a private
// bounce buffer, acknowledges at once (the sender may pack into that half again), and unpacks from
// the bounce buffer into its ghost cells. Double-buffered like every path that packs, so a sender
// may run one exchange ahead of its receiver. Three copies where the built-in paths make one or two: what
// it shows is that the core calls a path through the interface alone. It uses only what any path
// may use: the path interface, SlotBuild and the node-peer counter helpers.
#include "bounce_path.hpp"

#include <cstring>
#include <memory>
#include <vector>

#include "halo/commit/slot_build.hpp"
#include "halo/path_registry.hpp"
#include "halo/paths/node_peer.hpp"
#include "runtime/segment_state.hpp"

namespace gwtest {

std::atomic<std::uint64_t> bounce_messages{0};
const char* const bounce_description = "intra-node, bounce (the tests' own path: every message through a bounce buffer)";

namespace {

using namespace ghostwire::detail;

std::size_t rounded(std::size_t bytes) { return round_up(bytes, 64); }

class BounceSend final : public SendPath {
 public:
  explicit BounceSend(const SlotBuild& b) : counters_(peer_send_counters(b)) {
    for (std::size_t half = 0; half < 2; ++half) pack_[half] = b.pack_into(b.my_shared_memory() + half * rounded(b.bytes));
  }
  void post(PlanState& p, SendSlot& slot, Post) override {
    pack_[parity_of(next_sequence(slot.sequence))].run();
    post_to_peer(p, slot, counters_);
  }
  bool acknowledged(PlanState& p, SendSlot& slot) override { return peer_acknowledged(p, slot, counters_); }
  // The half the next message goes to was copied out by the receiver with the message before last.
  bool ready_for_next(PlanState& p, SendSlot& slot) override {
    return acknowledged(p, slot) || peer_acknowledged_previous(p, slot, counters_);
  }
  bool exchange_done(PlanState&, SendSlot&) override { return true; }  // packed: nothing of mine is read
  std::string describe_wait(const PlanState& p, const SendSlot& slot) const override {
    return describe_peer_send_wait(p, slot, counters_, bounce_description);
  }

 private:
  PeerSendCounters counters_;
  CopyProgram pack_[2];
};

class BounceReceive final : public ReceivePath {
 public:
  explicit BounceReceive(const SlotBuild& b)
      : counters_(peer_receive_counters(b)), bounce_(b.bytes) {
    for (std::size_t half = 0; half < 2; ++half) source_[half] = b.peer_shared_memory() + half * rounded(b.bytes);
    unpack_ = b.unpack_from(bounce_.data());
  }
  bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) override {
    if (!take_posted(p, slot, counters_, true)) return false;  // the sender may be one message ahead
    if (!bounce_.empty()) std::memcpy(bounce_.data(), source_[parity_of(slot.sequence)], bounce_.size());
    consume_from_peer(p, slot, counters_, receipt == Receipt::in_place ? Receipt::copy : receipt);
    unpack_.run();
    bounce_messages.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  void acknowledge(const PlanState& p, const ReceiveSlot& slot) const override { acknowledge_peer(p, slot, counters_); }
  std::string describe_wait(const PlanState& p, const ReceiveSlot& slot) const override {
    return describe_peer_receive_wait(p, slot, counters_, bounce_description);
  }

 private:
  PeerReceiveCounters counters_;
  const std::byte* source_[2];     // the sender's halves
  std::vector<std::byte> bounce_;  // mine
  CopyProgram unpack_;
};

// Any slot between node peers when forced; never by the automatic choice.
class BounceType final : public PathType {
 public:
  const char* name() const override { return "bounce"; }
  const char* description() const override { return bounce_description; }
  bool between_nodes() const override { return false; }
  bool offers(const SlotSide&, Choice how, const PathPlanState*) const override { return how == Choice::forced; }
  SlotMemory memory(const SlotSide& side) const override { return {side.sending ? 2 * rounded(side.bytes) : 0, 0}; }
  std::unique_ptr<SendPath> build_send(const SlotBuild& b) const override { return std::make_unique<BounceSend>(b); }
  std::unique_ptr<ReceivePath> build_receive(const SlotBuild& b) const override {
    return std::make_unique<BounceReceive>(b);
  }
};

const BounceType bounce_type;
// Registered as the program starts, before any plan commits.
const bool registered = (register_path(bounce_type), true);

}  // namespace
}  // namespace gwtest
