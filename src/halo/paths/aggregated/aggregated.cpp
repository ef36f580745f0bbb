// SPDX-License-Identifier: BSD-3-Clause
// The aggregated path: between nodes, a slot's message is one part of its pair of nodes' combined
// message (node_pairs.hpp). Sending packs it into the pair's buffer in the sending host's memory
// and counts it; receiving copies it out of the pair's buffer in the receiving host's memory once
// the host says the message is there, and counts that. The hosts' side of the combined messages is
// in node_pair_hosts.cpp; every step here first lets this rank do its hosts' work. docs/plans.md,
// "One message per pair of nodes".

#include <atomic>
#include <set>
#include <string>

#include "ghostwire/error.hpp"
#include "halo/commit/slot_build.hpp"
#include "halo/paths/aggregated/node_pairs.hpp"
#include "halo/plan_state.hpp"
#include "halo/sequence.hpp"
#include "runtime/wait.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {
namespace {

const char* const description = "inter-node, aggregated (a part of one message per pair of nodes)";

class AggregatedSend final : public SendPath {
 public:
  explicit AggregatedSend(const SlotBuild& b);
  void post(PlanState& p, SendSlot& slot, Post how) override;
  // The combined message with my part has left (its send is complete at the host).
  bool acknowledged(PlanState& p, SendSlot& slot) override;
  // The half the next message goes to is free: the message before last has left from it.
  bool ready_for_next(PlanState& p, SendSlot& slot) override;
  // Packed: nothing of mine is read; the host also waits for the combined message to leave.
  bool exchange_done(PlanState& p, SendSlot& slot) override;
  std::string describe_wait(const PlanState& p, const SendSlot& slot) const override;
  std::string not_acknowledged_hint(const SendSlot& slot) const override;
  std::string cannot_follow(const PlanState&, const SendSlot&, const MemoryMove&) const override { return {}; }
  void follow(PlanState&, SendSlot&, const MemoryMove& move) override {
    for (CopyProgram& pack : pack_into) pack.follow(move);
  }

 private:
  std::size_t pair = 0;              // in the plan's NodePairs
  PairCounters* counters = nullptr;  // the pair's, in the sending host's memory
  CopyProgram pack_into[2];          // into my part of half k % 2
  bool host = false;                 // this rank sends the pair's message
};

class AggregatedReceive final : public ReceivePath {
 public:
  explicit AggregatedReceive(const SlotBuild& b);
  void hand_over(PlanState& p, ReceiveSlot& slot) override;
  bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) override;
  std::string describe_wait(const PlanState& p, const ReceiveSlot& slot) const override;
  std::string cannot_follow(const PlanState&, const ReceiveSlot&, const MemoryMove&) const override { return {}; }
  void follow(PlanState&, ReceiveSlot&, const MemoryMove& move) override {
    for (CopyProgram& program : unpack) program.follow(move);
  }

 private:
  std::size_t pair = 0;
  PairCounters* counters = nullptr;  // the pair's, in the receiving host's memory
  CopyProgram unpack[2];             // out of my part of half k % 2
  bool host = false;                 // this rank receives the pair's message
};

void count_one(PairLine& line) {
  std::atomic_ref<std::uint32_t>(line.value).fetch_add(1, std::memory_order_acq_rel);
}

// The pair and my part of it for a slot between this rank and `rank` on the slot's channel.
const NodePair& pair_of(const SlotBuild& b, bool outgoing, std::size_t& index, std::size_t& offset) {
  const PlanState& p = b.plan;
  const int other_node = p.w->node_of_rank[static_cast<std::size_t>(b.rank)];
  const std::size_t channel = b.slot % p.channels;
  const std::int32_t found = pairs_of(p)->find(outgoing, other_node, channel);
  if (found < 0)
    raise(Errc::internal, "plan " + std::to_string(p.id) + ": no combined message with node " +
                              std::to_string(other_node) + " on channel " + std::to_string(channel));
  index = static_cast<std::size_t>(found);
  const NodePair& pair = pairs_of(p)->pairs[index];
  const PairPart& part = outgoing ? pair.part(p.w->rank, b.rank) : pair.part(b.rank, p.w->rank);
  if (part.bytes != b.bytes)
    raise(Errc::internal, "plan " + std::to_string(p.id) + ": the part of " + p.slot_name(channel, b.rank) +
                              " in its combined message has " + std::to_string(part.bytes) + " bytes, not " +
                              std::to_string(b.bytes));
  offset = part.offset;
  return pair;
}

// The ranks whose parts the sending host waits for: a rank on another node that waits for the
// message learns which of them may be the one that is late.
std::string packing_ranks(const NodePair& pair) {
  std::set<int> sources;
  for (const PairPart& part : pair.parts) sources.insert(part.source);
  std::string text = sources.size() == 1 ? "rank " : "ranks ";
  for (auto it = sources.begin(); it != sources.end(); ++it)
    text += (it == sources.begin() ? "" : ", ") + std::to_string(*it);
  return text;
}

std::string pair_text(const PlanState& p, const NodePair& pair) {
  const int me = p.w->node;
  return "the combined message from node " + std::to_string(pair.outgoing ? me : pair.other_node) + " to node " +
         std::to_string(pair.outgoing ? pair.other_node : me) + " on channel " + std::to_string(pair.channel) +
         " (" + std::to_string(pair.parts.size()) + " parts, " + std::to_string(pair.bytes) + " bytes), packed by " +
         packing_ranks(pair) + ", sent by rank " + std::to_string(pair.sending_host) +
         " once all are packed and received by rank " + std::to_string(pair.receiving_host);
}

AggregatedSend::AggregatedSend(const SlotBuild& b) {
  PlanState& p = b.plan;
  AggregatedSend& path = *this;
  std::size_t offset = 0;
  const NodePair& mine = pair_of(b, true, path.pair, offset);
  path.counters = &pair_counters(p, mine);
  path.host = mine.sending_host == p.w->rank;
  for (int parity = 0; parity < 2; ++parity) path.pack_into[parity] = b.pack_into(pair_half(p, mine, parity) + offset);
}

void AggregatedSend::post(PlanState& p, SendSlot& slot, Post) {
  const std::uint32_t next = next_sequence(slot.sequence);
  const int parity = parity_of(next);
  wait_until(
      *p.w,
      [&] {
        if (half_free_for(load(&counters->completed[parity].value), next)) return true;
        progress_node_pair(p, pair, pair_sends | pair_completions);
        return half_free_for(load(&counters->completed[parity].value), next);
      },
      [&] { return "half " + std::to_string(parity) + " for message " + std::to_string(next) + ": " + describe_wait(p, slot); },
      p.spin_polls);
  pack_into[parity].run();
  count_one(counters->filled[parity]);
  slot.sequence = next;
  if (host) progress_node_pair(p, pair, pair_sends);  // sent at once if every part is packed
}

bool AggregatedSend::acknowledged(PlanState& p, SendSlot& slot) {
  const PairLine& completed = counters->completed[parity_of(slot.sequence)];
  if (slot.sequence == 0 || load(&completed.value) == slot.sequence) return true;
  progress_node_pair(p, pair, pair_sends | pair_completions);
  return load(&completed.value) == slot.sequence;
}

bool AggregatedSend::ready_for_next(PlanState& p, SendSlot& slot) {
  const std::uint32_t next = next_sequence(slot.sequence);
  const PairLine& completed = counters->completed[parity_of(next)];
  if (half_free_for(load(&completed.value), next)) return true;
  progress_node_pair(p, pair, pair_sends | pair_completions);
  return half_free_for(load(&completed.value), next);
}

bool AggregatedSend::exchange_done(PlanState& p, SendSlot& slot) { return !host || acknowledged(p, slot); }

std::string AggregatedSend::describe_wait(const PlanState& p, const SendSlot& slot) const {
  const NodePair& np = pairs_of(p)->pairs[pair];
  const int parity = parity_of(slot.sequence);
  return "message " + std::to_string(slot.sequence) + " on " + p.slot_name(slot.channel, slot.rank) + " of plan " +
         std::to_string(p.id) + " (" + description + "; a part of " + pair_text(p, np) + "; parts packed into half " +
         std::to_string(parity) + ": " + std::to_string(load(&counters->filled[parity].value)) + " of " +
         std::to_string(np.parts.size()) + ", last message sent from it: " +
         std::to_string(load(&counters->completed[parity].value)) +
         "; the sending rank sends it once every part is packed, while it is in a ghostwire call)";
}

std::string AggregatedSend::not_acknowledged_hint(const SendSlot&) const {
  return "has not left in its combined message yet (every part of it must be sent first); call wait_send before "
         "sending again";
}

AggregatedReceive::AggregatedReceive(const SlotBuild& b) {
  PlanState& p = b.plan;
  AggregatedReceive& path = *this;
  std::size_t offset = 0;
  const NodePair& mine = pair_of(b, false, path.pair, offset);
  path.counters = &pair_counters(p, mine);
  path.host = mine.receiving_host == p.w->rank;
  for (int parity = 0; parity < 2; ++parity) path.unpack[parity] = b.unpack_from(pair_half(p, mine, parity) + offset);
}

void AggregatedReceive::hand_over(PlanState& p, ReceiveSlot&) {
  if (host) progress_node_pair(p, pair, pair_reposts);
}

bool AggregatedReceive::try_receive(PlanState& p, ReceiveSlot& slot, Receipt) {
  const std::uint32_t expected = next_sequence(slot.sequence);
  const int parity = parity_of(expected);
  if (load(&counters->arrived[parity].value) != expected) {
    // This pair's arrival; then, in turns, a few other pairs' sends and reposts, which the ranks
    // this one waits for may wait for and which need no MPI call unless due. Their arrivals only at
    // times: each is an MPI_Test, a system call over TCP (docs/plans.md), but a rank looping on
    // test_finish(channel) must still take the other channels' messages its node peers wait for.
    progress_node_pair(p, pair, pair_reposts | pair_arrivals);
    progress_node_pairs(p, pair_sends | pair_reposts | pair_arrivals_at_times, 4);
    if (load(&counters->arrived[parity].value) != expected) return false;
  }
  unpack[parity].run();
  count_one(counters->consumed[parity]);  // the host posts the half's receive again after the last part
  slot.sequence = slot.consumed = expected;
  if (host) progress_node_pair(p, pair, pair_reposts);
  return true;
}

std::string AggregatedReceive::describe_wait(const PlanState& p, const ReceiveSlot& slot) const {
  const NodePair& np = pairs_of(p)->pairs[pair];
  const std::uint32_t expected = next_sequence(slot.sequence);
  const int parity = parity_of(expected);
  return "message " + std::to_string(expected) + " on " + p.slot_name(slot.channel, slot.rank) + " of plan " +
         std::to_string(p.id) + " (" + description + "; a part of " + pair_text(p, np) + "; half " +
         std::to_string(parity) + " holds message " + std::to_string(load(&counters->arrived[parity].value)) +
         ", parts of it taken: " + std::to_string(load(&counters->consumed[parity].value)) +
         "; the receiving rank takes it while it is in a ghostwire call)";
}

// Its slots' messages travel in the pairs' messages, so its plan state decides, the same on every
// rank, and it counts those messages itself.
class AggregatedType final : public PathType {
 public:
  const char* name() const override { return "aggregated"; }
  const char* description() const override { return ::ghostwire::detail::description; }
  bool between_nodes() const override { return true; }
  bool receiver_prepares() const override { return true; }
  bool counts_own_traffic() const override { return true; }
  std::unique_ptr<PathPlanState> prepare(PlanState& p, std::size_t largest, const std::string& context) const override {
    return choose_aggregation(p, largest, context);
  }
  bool offers(const SlotSide&, Choice, const PathPlanState* state) const override {
    return static_cast<const NodePairs*>(state)->combined;
  }
  std::unique_ptr<SendPath> build_send(const SlotBuild& b) const override { return std::make_unique<AggregatedSend>(b); }
  std::unique_ptr<ReceivePath> build_receive(const SlotBuild& b) const override {
    return std::make_unique<AggregatedReceive>(b);
  }
};

}  // namespace

const PathType& aggregated_path() {
  static const AggregatedType type;
  return type;
}

}  // namespace ghostwire::detail
