// SPDX-License-Identifier: BSD-3-Clause
// The staged path: between node peers, the sender packs message k into half k % 2 of its staging
// memory (its end's shared memory) and the receiver copies it out: two copies, but each side
// touches the other's memory only as dense lines. For private or sparse sender data. Double
// buffering lets a sender pack and post message k + 1 before its receiver has taken message k; the
// receiver accepts a posted counter one ahead and takes them in order. docs/plans.md, "Staging is
// double-buffered".
#include <algorithm>

#include "halo/commit/slot_build.hpp"
#include "halo/paths/node_peer.hpp"
#include "halo/paths/staging.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {
namespace {

const char* const description = "intra-node, staged (packed by the sender into shared staging: private or sparse data)";

class StagedSend final : public SendPath {
 public:
  explicit StagedSend(const SlotBuild& b) : counters_(peer_send_counters(b)) {
    for (int parity = 0; parity < 2; ++parity) {
      pack_into_[parity] = pack_into_staging(b, parity);
      staging_[parity] = my_staging(b, parity);
    }
  }
  void post(PlanState& p, SendSlot& slot, Post) override {
    pack_into_[parity_of(next_sequence(slot.sequence))].run();
    post_to_peer(p, slot, counters_);
  }
  bool acknowledged(PlanState& p, SendSlot& slot) override { return peer_acknowledged(p, slot, counters_); }
  // Double-buffered: the half the next message goes to was freed by the message before last.
  bool ready_for_next(PlanState& p, SendSlot& slot) override {
    return peer_acknowledged(p, slot, counters_) || peer_acknowledged_previous(p, slot, counters_);
  }
  bool exchange_done(PlanState&, SendSlot&) override { return true; }  // packed: nothing of mine is read
  // The acknowledgement, and the half the next message is packed into, asked for to be written.
  void prefetch_next(const SendSlot& slot, std::size_t bytes) const override {
    prefetch_acknowledgement(counters_);
    const std::byte* half = staging_[parity_of(next_sequence(slot.sequence))];
    for (std::size_t b = 0; b < std::min(bytes, slot.bytes); b += 64) __builtin_prefetch(half + b, 1, 3);
  }
  std::string describe_wait(const PlanState& p, const SendSlot& slot) const override {
    return describe_peer_send_wait(p, slot, counters_, description);
  }
  std::string cannot_follow(const PlanState&, const SendSlot&, const MemoryMove&) const override { return {}; }
  void follow(PlanState&, SendSlot&, const MemoryMove& move) override {
    for (CopyProgram& pack : pack_into_) pack.follow(move);
  }

 private:
  PeerSendCounters counters_;
  CopyProgram pack_into_[2];  // message k into staging half k % 2
  const std::byte* staging_[2] = {nullptr, nullptr};
};

class StagedReceive final : public PeerReceiveEnd {
 public:
  explicit StagedReceive(const SlotBuild& b) : PeerReceiveEnd(b, description) {
    for (int parity = 0; parity < 2; ++parity) {
      staging_[parity] = peer_staging(b, parity);
      unpack_[parity] = b.unpack_from(staging_[parity]);
    }
    last_ = staging_[1];  // where message 1 will be
  }
  bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) override {
    if (!take_posted(p, slot, counters_, true)) return false;
    const int parity = parity_of(slot.sequence);
    last_ = staging_[parity];
    if (receipt == Receipt::in_place) {
      slot.held = true;  // read in the staging half; release() acknowledges
      return true;
    }
    unpack_[parity].run();
    consume_from_peer(p, slot, counters_, receipt);
    return true;
  }
  const std::byte* view() const override { return last_; }
  void prefetch_next(const ReceiveSlot& slot, std::size_t bytes) const override {
    prefetch_arrival(staging_[parity_of(next_sequence(slot.sequence))], bytes);
  }
  std::string cannot_follow(const PlanState&, const ReceiveSlot&, const MemoryMove&) const override { return {}; }
  void follow(PlanState&, ReceiveSlot&, const MemoryMove& move) override {
    for (CopyProgram& unpack : unpack_) unpack.follow(move);
  }

 private:
  CopyProgram unpack_[2];  // out of staging half k % 2
  const std::byte* staging_[2] = {nullptr, nullptr};
  const std::byte* last_ = nullptr;  // the half the last message received went to
};

class StagedType final : public PathType {
 public:
  const char* name() const override { return "staged"; }
  const char* description() const override { return ::ghostwire::detail::description; }
  bool between_nodes() const override { return false; }
  bool offers(const SlotSide&, Choice, const PathPlanState*) const override { return true; }  // anything
  SlotMemory memory(const SlotSide& side) const override {
    return {side.sending ? staging_bytes(side.bytes) : 0, 0};
  }
  std::unique_ptr<SendPath> build_send(const SlotBuild& b) const override { return std::make_unique<StagedSend>(b); }
  std::unique_ptr<ReceivePath> build_receive(const SlotBuild& b) const override {
    return std::make_unique<StagedReceive>(b);
  }
};

}  // namespace

const PathType& staged_path() {
  static const StagedType type;
  return type;
}

}  // namespace ghostwire::detail
