// SPDX-License-Identifier: BSD-3-Clause
// The cross-memory path: between node peers, the receiver reads the sender's live data straight
// from its private memory into its ghost cells with cross-memory attach (process_read.hpp): one
// copy by the kernel, where the sender's memory is not in a Segment (a user's heap array) and so
// cannot be mapped. send() is a counter store, as in place; the sender's next message (or its next
// change of the data) waits for the acknowledgement. Taken only where every rank of the plan could
// read its node peers at commit, and only when GHOSTWIRE_INTRA_PATH or Plan::intra_path names it
// (the PetscSF type does, where one copy pays for its messages): on
// private grid arrays (gw-bench halo --impl gw-private, 2 ranks) it measured slower than staging
// from 16 KiB to 288 KiB messages (each read is a system call that pins the pages it touches, and
// the sender waits for it), so the automatic choice stages (docs/internals/plans.md).
#include <unistd.h>

#include <atomic>
#include <ostream>

#include "ghostwire/error.hpp"
#include "halo/collective.hpp"
#include "halo/commit/slot_build.hpp"
#include "halo/commit/slot_choice.hpp"
#include "halo/commit/slot_parts.hpp"
#include "halo/paths/cross_memory/process_read.hpp"
#include "halo/paths/node_peer.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {
namespace {

const char* const description =
    "intra-node, cross-memory (the receiver reads the sender's private data with process_vm_readv)";

// Runs of different regions stay apart where their memory meets (Plan::rebind may move one).
std::vector<MemoryRun> runs_of(const std::vector<Piece>& pieces) {
  std::vector<MemoryRun> runs;
  const std::byte* last_base = nullptr;
  for (const Piece& piece : pieces) {
    const std::size_t region_first_run = piece.base == last_base ? 0 : runs.size();
    last_base = piece.base;
    piece.layout->for_each_run([&](std::size_t first, std::size_t count) {
      const auto address = reinterpret_cast<std::uintptr_t>(piece.base + first * piece.element_size);
      const std::size_t bytes = count * piece.element_size;
      if (runs.size() > region_first_run && runs.back().address + runs.back().bytes == address)
        runs.back().bytes += bytes;
      else
        runs.push_back({address, bytes});
    });
  }
  return runs;
}

// Whether every rank of the plan can read its node peers (the same on every rank); if it was asked
// for and cannot, describe() says why.
struct CrossMemoryPlanState final : PathPlanState {
  bool asked = false, works = false;
  std::string why;
  void describe(const PlanState&, std::ostream& text) const override {
    if (asked && !works)
      text << "  cross-memory attach (asked for by GHOSTWIRE_INTRA_PATH or Plan::intra_path) does not work here: " << why
           << "; node peers' messages took the other paths\n";
  }
};

// Where a sender's runs are now, for its receiver, in the sender's shared memory of the slot: a
// count of moves (Plan::rebind), then each run's address. Rewritten only when the sender's memory
// moves, between exchanges; its next post (a release store) publishes it with the message.
struct PublishedRuns {
  std::uint64_t* moves;
  std::uint64_t* addresses;
};
constexpr std::size_t published_header = 64;
PublishedRuns published_runs(std::byte* memory) {
  return {reinterpret_cast<std::uint64_t*>(memory), reinterpret_cast<std::uint64_t*>(memory + published_header)};
}

class CrossMemorySend final : public SendReadInPlace {
 public:
  explicit CrossMemorySend(const SlotBuild& b)
      : SendReadInPlace(b, description), runs_(runs_of(b.mine)), published_(published_runs(b.my_shared_memory())) {
    publish();
  }
  std::string cannot_follow(const PlanState&, const SendSlot&, const MemoryMove&) const override { return {}; }
  void follow(PlanState&, SendSlot&, const MemoryMove& move) override {
    bool moved = false;
    for (MemoryRun& run : runs_) moved |= move.follow(run.address);
    if (moved) publish();
  }

 private:
  void publish() {
    for (std::size_t r = 0; r < runs_.size(); ++r) published_.addresses[r] = runs_[r].address;
    std::atomic_ref<std::uint64_t>(*published_.moves).store(++moves_, std::memory_order_release);
  }
  std::vector<MemoryRun> runs_;
  PublishedRuns published_;
  std::uint64_t moves_ = 0;
};

class CrossMemoryReceive final : public PeerReceiveEnd {
 public:
  explicit CrossMemoryReceive(const SlotBuild& b)
      : PeerReceiveEnd(b, description), mine_(runs_of(b.mine)), published_(published_runs(b.peer_shared_memory())) {
    WireReader in = b.peer_section();
    pid_ = static_cast<pid_t>(in.u64());
    theirs_.resize(in.count(16, "memory run"));
    for (MemoryRun& run : theirs_) run = {in.u64(), in.u64()};
  }
  bool try_receive(PlanState& p, ReceiveSlot& slot, Receipt receipt) override {
    if (!take_posted(p, slot, counters_, false)) return false;
    follow_sender();
    read_process(pid_, slot.rank, theirs_, mine_);
    consume_from_peer(p, slot, counters_, receipt == Receipt::in_place ? Receipt::copy : receipt);
    return true;
  }
  std::string cannot_follow(const PlanState&, const ReceiveSlot&, const MemoryMove&) const override { return {}; }
  void follow(PlanState&, ReceiveSlot&, const MemoryMove& move) override {
    for (MemoryRun& run : mine_) move.follow(run.address);
  }

 private:
  // The sender's memory moved since its last message I read (the posted message I took with
  // acquire was published after the move): read where its runs are now.
  void follow_sender() {
    const std::uint64_t moves = std::atomic_ref<std::uint64_t>(*published_.moves).load(std::memory_order_acquire);
    if (moves == sender_moves_) return;
    for (std::size_t r = 0; r < theirs_.size(); ++r) theirs_[r].address = published_.addresses[r];
    sender_moves_ = moves;
  }
  pid_t pid_ = 0;
  std::vector<MemoryRun> theirs_, mine_;  // the sender's data and my ghost cells, in message order
  PublishedRuns published_;
  std::uint64_t sender_moves_ = 1;  // the sender publishes its commit-time runs as move 1
};

// Collective: whether GHOSTWIRE_INTRA_PATH or Plan::intra_path names the path on some rank (else
// nothing to probe), then every rank reads each node peer it receives from once; the path works
// only if all of them could.
std::unique_ptr<PathPlanState> probe_peers(PlanState& p, const std::string& context) {
  auto state = std::make_unique<CrossMemoryPlanState>();
  WorldState& w = *p.w;
  const PathType* forced = forced_intra_path(p);
  int wanted = forced != nullptr && std::string(forced->name()) == "cross-memory" ? 1 : 0;
  MPI_Request request;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, &wanted, 1, MPI_INT, MPI_MAX, p.comm, &request), "MPI_Iallreduce");
  wait_request(w, request, context + ": whether a rank asks for cross-memory attach");
  if (!wanted) return state;
  state->asked = true;
  const std::uint64_t mine[2] = {static_cast<std::uint64_t>(getpid()), probe_address()};
  std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(w.size));
  check_mpi(MPI_Iallgather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, p.comm, &request), "MPI_Iallgather");
  wait_request(w, request, context + ": the ranks' process ids");
  int readable = 1;
  std::string why;
  for (std::size_t s = 0; s < p.receive_pieces.size() && readable; ++s) {
    const int rank = p.neighbours[s / p.channels];
    if (p.receive_pieces[s].empty() || slot_between_nodes(p, s) || rank == w.rank) continue;
    const auto r = static_cast<std::size_t>(rank);
    readable = probe_process(static_cast<pid_t>(all[2 * r]), rank, all[2 * r + 1], why) ? 1 : 0;
  }
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, &readable, 1, MPI_INT, MPI_MIN, p.comm, &request), "MPI_Iallreduce");
  wait_request(w, request, context + ": whether every rank can read its node peers");
  state->works = readable != 0;
  state->why = why.empty() ? "it fails on another rank" : why;
  return state;
}

class CrossMemoryType final : public PathType {
 public:
  const char* name() const override { return "cross-memory"; }
  const char* description() const override { return ::ghostwire::detail::description; }
  bool between_nodes() const override { return false; }
  bool receiver_reads_sent_data() const override { return true; }
  std::unique_ptr<PathPlanState> prepare(PlanState& p, std::size_t, const std::string& context) const override {
    return probe_peers(p, context);
  }
  // Any receiver can read; a sender offers its data where the kernel can read it, not to itself,
  // when forced only.
  bool offers(const SlotSide& side, Choice how, const PathPlanState* state) const override {
    if (!side.sending) return true;
    return how == Choice::forced && static_cast<const CrossMemoryPlanState*>(state)->works && !side.to_self &&
           side.bytes != 0;
  }
  void describe_side(const SlotSide& side, WireWriter& out) const override {
    if (!side.sending) return;
    const std::vector<MemoryRun> runs = runs_of(pieces_of(*side.plan, *side.pieces));
    out.u64(static_cast<std::uint64_t>(getpid()));
    out.u64(runs.size());
    for (const MemoryRun& run : runs) {
      out.u64(run.address);
      out.u64(run.bytes);
    }
  }
  // The sender's runs, published where its receiver reads them (CrossMemorySend).
  SlotMemory memory(const SlotSide& side) const override {
    if (!side.sending) return {};
    return {published_header + 8 * runs_of(pieces_of(*side.plan, *side.pieces)).size(), 0};
  }
  std::unique_ptr<SendPath> build_send(const SlotBuild& b) const override {
    return std::make_unique<CrossMemorySend>(b);
  }
  std::unique_ptr<ReceivePath> build_receive(const SlotBuild& b) const override {
    return std::make_unique<CrossMemoryReceive>(b);
  }
};

}  // namespace

const PathType& cross_memory_path() {
  static const CrossMemoryType type;
  return type;
}

}  // namespace ghostwire::detail
