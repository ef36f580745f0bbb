// SPDX-License-Identifier: BSD-3-Clause
// One message per pair of nodes (docs/plans.md, "One message per pair of nodes"): a plan's
// messages from the ranks of node A to the ranks of node B on one channel travel as one combined
// MPI message per exchange. Its parts are ordered by (source rank, destination rank) and laid out
// the same way on both nodes, from node-wide gathers of every rank's inter-node slots. One rank of
// A that has a part in it (the pair's sending host) sends it from half k % 2 of a double buffer in
// its part of the pairs' Segment, into which every part's rank packs; one rank of B that has a part
// (the receiving host) keeps a receive posted into its own double buffer, from which every part's
// rank copies its part out. The counters of a pair's message sit on their own cache lines before its
// buffer; each is written by one side only (the host, or the parts' ranks adding one each).
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <memory>
#include <vector>

#include "ghostwire/segment.hpp"
#include "halo/path.hpp"

namespace ghostwire::detail {

struct PlanState;

// Aggregation::automatic combines a plan's messages between nodes when its nodes are on different
// machines, some pair of nodes carries at least this many messages and none is larger than this
// (docs/BENCHMARKS.md, "One message per pair of nodes": where it was measured to win).
inline constexpr std::size_t aggregate_automatic_parts = 4;
inline constexpr std::size_t aggregate_automatic_bytes = 8192;

struct PairPart {
  int source = -1, destination = -1;  // world ranks
  std::size_t bytes = 0, offset = 0;  // within the combined message
};

// In the host's part of the pairs' Segment, each on a line of its own.
struct alignas(64) PairLine {
  std::uint32_t value = 0;
};
struct PairCounters {
  PairLine filled[2];     // sending node: parts packed into half k % 2 for message k
  PairLine completed[2];  // sending node: the last message whose send from half k % 2 is complete
  PairLine arrived[2];    // receiving node: the message now in half k % 2
  PairLine consumed[2];   // receiving node: parts of that message copied out
};

struct NodePair {
  bool outgoing = false;  // from my node (else to it)
  int other_node = -1;
  std::size_t channel = 0;  // the plan's
  std::vector<PairPart> parts;  // by (source, destination)
  std::size_t bytes = 0;        // of the combined message's data (the trailer follows)
  int sending_host = -1, receiving_host = -1;  // world ranks, one on each node
  std::size_t host_offset = 0;  // of its counters in its host's part of the pairs' Segment (its buffer follows)
  std::size_t half_bytes = 0;   // data and trailer, rounded to lines

  int my_host() const { return outgoing ? sending_host : receiving_host; }
  const PairPart& part(int source, int destination) const;
};

// The host's side of a pair's message, in its own memory: persistent requests on the plan's
// combined-message communicator, one per half.
struct HostedPair {
  std::size_t pair = 0;
  MPI_Request request[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  bool active[2] = {false, false};  // sending: in flight; receiving: posted
  std::uint32_t in_flight[2] = {0, 0};  // sending: the message each half's request carries
  std::uint32_t last = 0;  // sending: the last message started; receiving: the last received
};

// The aggregated path's plan-wide state: whether the plan combines its messages between nodes and
// why (for describe()), and if so the pairs, in a Segment of their own.
struct NodePairs final : PathPlanState {
  bool combined = false;
  std::string reason;
  std::unique_ptr<Segment> segment;  // each host's pairs, one after the other
  std::vector<NodePair> pairs;  // this node's, outgoing and incoming, in one order on every node rank
  std::unordered_map<std::uint64_t, std::int32_t> by_key;  // (direction, other node, channel) -> pair
  std::size_t hosted_bytes = 0;  // my part of `segment`
  MPI_Comm comm = MPI_COMM_NULL;  // the combined messages' own (tag: 2 x channel + parity)
  std::vector<HostedPair> hosted;
  std::vector<std::int32_t> hosted_of;  // by pair: its index in `hosted`, -1 if another rank hosts it
  std::size_t next_served = 0;          // where the next round of the world's waits starts
  std::uint32_t calls = 0;              // calls of progress_node_pairs (pair_arrivals_at_times)
  std::size_t reserved_requests = 0;    // persistent requests taken from the process's budget
  std::atomic<bool> busy{false};  // one thread serves the hosted pairs at a time
  std::uint64_t hosted_messages = 0, hosted_message_bytes = 0;  // what this rank sends per exchange

  // The pair (direction, other node, channel), or -1.
  std::int32_t find(bool outgoing, int other_node, std::size_t channel) const;

  void after_build(PlanState& p) override;
  void drain(PlanState& p) override;
  void describe(const PlanState& p, std::ostream& text) const override;
  void add_traffic(const PlanState& p, PlanTraffic& traffic) const override;
};

// The plan's combined messages, or null when it does not combine.
NodePairs* pairs_of(PlanState& p);
const NodePairs* pairs_of(const PlanState& p);

// Commit, first: whether the plan combines its inter-node messages (collective; the same on every
// rank, with the reason) and, if so, every pair of this node with its parts, hosts and place in the
// hosts' segments. After the slots are built (NodePairs::after_build), this rank's hosted pairs get
// their requests, its counters their zeros; every wait of the process serves them from then on.
std::unique_ptr<NodePairs> choose_aggregation(PlanState& p, std::size_t largest_slot_count,
                                              const std::string& context);
// The hosts' work, all of it or some: send the messages whose parts are all packed, note completed
// sends, post receives again into halves every part has copied out of, take arrived messages.
// Any thread; one at a time.
enum PairWork : unsigned {
  pair_sends = 1,
  pair_completions = 2,
  pair_reposts = 4,
  pair_arrivals = 8,
  pair_all = 15,
  // pair_arrivals in one call of progress_node_pairs in 16: liveness for pairs nobody waits on
  // here at the moment, at a sixteenth of the MPI_Tests (each may be a system call).
  pair_arrivals_at_times = 16,
};
// Every hosted pair (at most `limit` of them, in turns, from the world's waits), or one pair
// (nothing if another rank hosts it).
void progress_node_pairs(PlanState& p, unsigned work = pair_all, std::size_t limit = SIZE_MAX);
void progress_node_pair(PlanState& p, std::size_t pair, unsigned work);

PairCounters& pair_counters(PlanState& p, const NodePair& pair);
std::byte* pair_half(PlanState& p, const NodePair& pair, int parity);

// Half k % 2 may take message k: the message before last, which left from (or arrived into) it,
// is done with. `last` is that half's last message (0: none yet).
inline bool half_free_for(std::uint32_t last, std::uint32_t k) {
  if (last == 0) return true;
  std::uint32_t before = k <= 1 ? 0xFFFFFFFEu : k - 1;
  before = before <= 1 ? 0xFFFFFFFEu : before - 1;
  return last == before;
}

}  // namespace ghostwire::detail
