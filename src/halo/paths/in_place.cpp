// SPDX-License-Identifier: BSD-3-Clause
// The in-place path: between node peers, the receiver copies straight from the sender's live data
// (in a Segment, dense) into its ghost cells, one copy; send() is a counter store. The receiver's
// copy reads the sender's data, so the sender's next message (or its next change of the data)
// waits for the acknowledgement. docs/plans.md, "How a message travels".
#include "halo/commit/slot_build.hpp"
#include "halo/paths/node_peer.hpp"

namespace ghostwire::detail {
namespace {

const char* const description = "intra-node, in place (the receiver copies from the sender's data)";

class InPlaceReceive final : public PeerReceiveEnd {
 public:
  explicit InPlaceReceive(const SlotBuild& b) : PeerReceiveEnd(b, description) {
    WireReader section = b.peer_section();
    const MappedPieces sender = b.map_peer_pieces(read_locations(section));
    copy_ = CopyProgram::build(sender.pieces, b.mine);
    run_ = single_run(sender.pieces);
  }
  bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) override {
    if (!take_posted(p, slot, counters_, false)) return false;
    if (receipt == Receipt::in_place && run_ != nullptr) {
      slot.held = true;  // read where it is; release() acknowledges
      return true;
    }
    copy_.run();
    consume_from_peer(p, slot, counters_, receipt);
    return true;
  }
  const std::byte* view() const override { return run_; }
  void prefetch_next(const ReceiveSlot&, std::size_t bytes) const override { prefetch_arrival(run_, bytes); }
  std::string cannot_follow(const PlanState&, const ReceiveSlot&, const MemoryMove&) const override { return {}; }
  void follow(PlanState&, ReceiveSlot&, const MemoryMove& move) override { copy_.follow(move); }

 private:
  CopyProgram copy_;                // from the sender's data into my receive layout
  const std::byte* run_ = nullptr;  // the sender's data when it is one contiguous run, else null
};

class InPlaceType final : public PathType {
 public:
  const char* name() const override { return "in-place"; }
  const char* description() const override { return ::ghostwire::detail::description; }
  bool between_nodes() const override { return false; }
  bool receiver_reads_sent_data() const override { return true; }
  // The sender's data must be mappable; automatically, only where reading it in place touches few
  // lines the sender rewrites: dense data (a part of a split message is dense or not as a whole),
  // not where cores are shared (the next message would wait for the receiver to have run), and
  // always a message to itself (its own cache). Any receiver can read in place.
  bool offers(const SlotSide& side, Choice how, const PathPlanState*) const override {
    if (!side.sending) return true;
    if (!side.in_segments) return false;
    if (how == Choice::forced || side.to_self) return true;
    return side.dense && (side.split_part || !side.cores_shared);
  }
  void describe_side(const SlotSide& side, WireWriter& out) const override {
    if (side.sending) write_locations(out, locations_of(*side.plan, *side.pieces));
  }
  std::unique_ptr<SendPath> build_send(const SlotBuild& b) const override {
    return std::make_unique<SendReadInPlace>(b, ::ghostwire::detail::description);
  }
  std::unique_ptr<ReceivePath> build_receive(const SlotBuild& b) const override {
    return std::make_unique<InPlaceReceive>(b);
  }
};

}  // namespace

const PathType& in_place_path() {
  static const InPlaceType type;
  return type;
}

}  // namespace ghostwire::detail
