// SPDX-License-Identifier: BSD-3-Clause
// The hosts' work for combined messages between nodes (node_pairs.hpp). ghostwire has no progress
// thread: a host does this work in every call of the plan and every wait of the process
// (WorldState::owed_work), so a pair's message moves while its host is inside ghostwire.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ghostwire/error.hpp"
#include "halo/mpi_messages.hpp"
#include "halo/paths/aggregated/node_pairs.hpp"
#include "halo/plan_state.hpp"
#include "halo/sequence.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/threads.hpp"
#include "runtime/wait.hpp"

namespace ghostwire::detail {
namespace {

// Every MPI call may poll the network (a system call over TCP), so each step below calls MPI only
// when it has something to do: start a send whose parts are all packed, test a send only when its
// completion is asked for, test a receive only when its message is.

// The next message, once all its parts are packed and its half is free; in order.
bool start_send(PlanState& p, HostedPair& hosted, PairCounters& counters) {
  const NodePair& pair = pairs_of(p)->pairs[hosted.pair];
  const std::uint32_t next = next_sequence(hosted.last);
  const int parity = parity_of(next);
  if (load(&counters.filled[parity].value) != pair.parts.size()) return false;
  if (hosted.active[parity]) {  // the message before last, from the same half: its parts waited for it
    if (!request_complete(hosted.request[parity])) return false;
    hosted.active[parity] = false;
    store(&counters.completed[parity].value, hosted.in_flight[parity]);
  }
  std::byte* half = pair_half(p, pair, parity);
  const MessageTrailer trailer{next, 0};
  std::memcpy(half + pair.bytes, &trailer, sizeof trailer);
  // The packers of message next + 2 wait for this half's completion, stored after this.
  store(&counters.filled[parity].value, 0);
  check_mpi(MPI_Start(&hosted.request[parity]), "MPI_Start");
  hosted.active[parity] = true;
  hosted.in_flight[parity] = hosted.last = next;
  return true;
}

// Completed sends free their halves for the message after next.
void complete_sends(HostedPair& hosted, PairCounters& counters) {
  for (int parity = 0; parity < 2; ++parity)
    if (hosted.active[parity] && request_complete(hosted.request[parity])) {
      hosted.active[parity] = false;
      store(&counters.completed[parity].value, hosted.in_flight[parity]);
    }
}

// A half whose message every part has copied out takes the message after next: its receive is
// posted again (no test needed).
void repost_receives(HostedPair& hosted, PairCounters& counters, std::size_t parts) {
  for (int half = 0; half < 2; ++half) {
    if (hosted.active[half] || load(&counters.arrived[half].value) == 0) continue;
    if (load(&counters.consumed[half].value) != parts) continue;
    store(&counters.consumed[half].value, 0);
    check_mpi(MPI_Start(&hosted.request[half]), "MPI_Start");
    hosted.active[half] = true;
  }
}

// The next message, if it has arrived: published to the parts' ranks. In order.
bool take_arrival(PlanState& p, HostedPair& hosted, PairCounters& counters) {
  const NodePair& pair = pairs_of(p)->pairs[hosted.pair];
  const std::uint32_t expected = next_sequence(hosted.last);
  const int parity = parity_of(expected);
  if (!hosted.active[parity] || !request_complete(hosted.request[parity])) return false;
  MessageTrailer trailer;
  std::memcpy(&trailer, pair_half(p, pair, parity) + pair.bytes, sizeof trailer);
  if (trailer.sequence != expected)
    raise(Errc::internal, "plan " + std::to_string(p.id) + ": the combined message from node " +
                              std::to_string(pair.other_node) + " on channel " + std::to_string(pair.channel) +
                              " should be message " + std::to_string(expected) + " but carries sequence number " +
                              std::to_string(trailer.sequence));
  hosted.active[parity] = false;
  hosted.last = expected;
  store(&counters.arrived[parity].value, expected);
  return true;
}

void serve(PlanState& p, HostedPair& hosted, unsigned work) {
  const NodePair& pair = pairs_of(p)->pairs[hosted.pair];
  PairCounters& counters = pair_counters(p, pair);
  if (pair.outgoing) {
    if (work & pair_sends)
      while (start_send(p, hosted, counters)) {
      }
    if (work & pair_completions) complete_sends(hosted, counters);
  } else {
    if (work & pair_reposts) repost_receives(hosted, counters, pair.parts.size());
    if (work & pair_arrivals)
      while (take_arrival(p, hosted, counters)) repost_receives(hosted, counters, pair.parts.size());
  }
}

// Runs `serve_some` with the pairs to itself, if this thread may: one thread at a time, and only
// where it may enter MPI (the one that may serves them).
template <class Serve>
void with_hosts(PlanState& p, Serve&& serve_some) {
  NodePairs* pairs = pairs_of(p);
  if (!pairs || pairs->hosted.empty()) return;
  NodePairs& np = *pairs;
  if (np.busy.exchange(true, std::memory_order_acquire)) return;  // another thread serves them
  struct Unlock {
    std::atomic<bool>& busy;
    ~Unlock() { busy.store(false, std::memory_order_release); }
  } unlock{np.busy};
  const ProgressTurn turn(*p.w);
  if (turn) serve_some(np);
}

}  // namespace

void progress_node_pairs(PlanState& p, unsigned work, std::size_t limit) {
  with_hosts(p, [&](NodePairs& np) {
    if ((work & pair_arrivals_at_times) && (++np.calls & 15) == 0) work |= pair_arrivals;
    const std::size_t count = np.hosted.size(), turns = std::min(limit, count);
    for (std::size_t k = 0; k < turns; ++k) serve(p, np.hosted[(np.next_served + k) % count], work);
    np.next_served = (np.next_served + turns) % count;
  });
}

void progress_node_pair(PlanState& p, std::size_t pair, unsigned work) {
  if (!pairs_of(p) || pairs_of(p)->hosted_of[pair] < 0) return;
  with_hosts(p, [&](NodePairs& np) { serve(p, np.hosted[static_cast<std::size_t>(np.hosted_of[pair])], work); });
}

// Collective, as the plan goes: every hosted send delivered, then the requests freed.
void NodePairs::drain(PlanState& p) {
  if (!combined) return;
  NodePairs& np = *this;
  for (HostedPair& one : np.hosted) {
    if (!np.pairs[one.pair].outgoing) continue;
    for (int parity = 0; parity < 2; ++parity)
      wait_until(
          *p.w,
          [&] {
            drop_unreceived_messages(np.comm);
            return !one.active[parity] || request_complete(one.request[parity]);
          },
          [&] { return "the delivery of a combined message of plan " + std::to_string(p.id) + " while destroying it"; });
  }
  MPI_Request barrier;
  check_mpi(MPI_Ibarrier(np.comm, &barrier), "MPI_Ibarrier");
  wait_until(
      *p.w, [&] { drop_unreceived_messages(np.comm); return request_complete(barrier); },
      [&] { return "all ranks to destroy plan " + std::to_string(p.id) + " (combined messages)"; });
  for (HostedPair& one : np.hosted)
    for (int parity = 0; parity < 2; ++parity) {
      if (one.request[parity] == MPI_REQUEST_NULL) continue;
      if (!np.pairs[one.pair].outgoing && one.active[parity]) {
        MPI_Cancel(&one.request[parity]);
        MPI_Wait(&one.request[parity], MPI_STATUS_IGNORE);
      }
      MPI_Request_free(&one.request[parity]);
    }
  MPI_Comm_free(&np.comm);
  return_persistent_requests(np.reserved_requests);
}

}  // namespace ghostwire::detail
