// SPDX-License-Identifier: BSD-3-Clause
// Commit's part of one message per pair of nodes (node_pairs.hpp): the choice, the pairs with
// their parts, hosts and memory, and the hosts' requests.
#include "halo/paths/aggregated/node_pairs.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>
#include <tuple>

#include <ostream>

#include "halo/collective.hpp"
#include "halo/commit/slot_parts.hpp"
#include "halo/commit/slot_pieces.hpp"
#include "halo/mpi_messages.hpp"
#include "halo/path_registry.hpp"
#include "halo/plan_state.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/segment_state.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {

const PairPart& NodePair::part(int source, int destination) const {
  const auto found = std::lower_bound(parts.begin(), parts.end(), std::make_pair(source, destination),
                                      [](const PairPart& part, const std::pair<int, int>& key) {
                                        return std::make_pair(part.source, part.destination) < key;
                                      });
  if (found != parts.end() && found->source == source && found->destination == destination) return *found;
  raise(Errc::internal, "no part from rank " + std::to_string(source) + " to rank " + std::to_string(destination) +
                            " in the combined message on channel " + std::to_string(channel));
}

namespace {

std::uint64_t pair_key(bool outgoing, int other_node, std::size_t channel) {
  return (static_cast<std::uint64_t>(outgoing) << 63) | (static_cast<std::uint64_t>(other_node) << 32) | channel;
}

constexpr std::size_t line = 64;
constexpr std::size_t fields = 5;  // a record: outgoing, source, destination, channel, bytes

// This rank's inter-node slots, both directions.
std::vector<std::uint64_t> my_records(const PlanState& p) {
  std::vector<std::uint64_t> records;
  const auto me = static_cast<std::uint64_t>(p.w->rank);
  for (std::size_t s = 0; s < p.send_pieces.size(); ++s) {
    if (!slot_between_nodes(p, s)) continue;
    const auto other = static_cast<std::uint64_t>(p.neighbours[s / p.channels]), channel = s % p.channels;
    if (!p.send_pieces[s].empty())
      records.insert(records.end(), {1, me, other, channel, message_bytes(p, p.send_pieces[s])});
    if (!p.receive_pieces[s].empty())
      records.insert(records.end(), {0, other, me, channel, message_bytes(p, p.receive_pieces[s])});
  }
  return records;
}

// Every rank's records on my node.
std::vector<std::uint64_t> node_records(PlanState& p, const std::string& context) {
  WorldState& w = *p.w;
  const std::vector<std::uint64_t> mine = my_records(p);
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(w.node_size)), displacements(counts.size());
  MPI_Request request;
  check_mpi(MPI_Iallgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, w.node_comm, &request), "MPI_Iallgather");
  wait_request(w, request, context + ": the inter-node slot counts of the node's ranks");
  int total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    displacements[r] = total;
    total += counts[r];
  }
  std::vector<std::uint64_t> all(static_cast<std::size_t>(total));
  check_mpi(MPI_Iallgatherv(mine.data(), count, MPI_UINT64_T, all.data(), counts.data(), displacements.data(),
                            MPI_UINT64_T, w.node_comm, &request),
            "MPI_Iallgatherv");
  wait_request(w, request, context + ": the inter-node slots of the node's ranks");
  return all;
}

// The ranks with a part in it, sorted; the host is one of them, spread over them by the other
// node and the channel so that one rank does not host every pair.
int pick_host(std::vector<int> ranks, int other_node, std::size_t channel) {
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return ranks[(static_cast<std::size_t>(other_node) + channel) % ranks.size()];
}

std::vector<NodePair> make_pairs(const PlanState& p, const std::vector<std::uint64_t>& records) {
  const WorldState& w = *p.w;
  std::map<std::tuple<bool, int, std::size_t>, NodePair> by_key;
  for (std::size_t i = 0; i + fields <= records.size(); i += fields) {
    const bool outgoing = records[i] != 0;
    const int source = static_cast<int>(records[i + 1]), destination = static_cast<int>(records[i + 2]);
    const int other = w.node_of_rank[static_cast<std::size_t>(outgoing ? destination : source)];
    NodePair& pair = by_key[{outgoing, other, records[i + 3]}];
    pair.outgoing = outgoing;
    pair.other_node = other;
    pair.channel = records[i + 3];
    pair.parts.push_back({source, destination, records[i + 4], 0});
  }
  std::vector<NodePair> pairs;
  for (auto& [key, pair] : by_key) {
    std::sort(pair.parts.begin(), pair.parts.end(), [](const PairPart& a, const PairPart& b) {
      return std::tie(a.source, a.destination) < std::tie(b.source, b.destination);
    });
    std::vector<int> sources, destinations;
    for (PairPart& part : pair.parts) {
      part.offset = pair.bytes;
      pair.bytes += round_up(part.bytes, 8);  // each part aligned for any element type
      sources.push_back(part.source);
      destinations.push_back(part.destination);
    }
    const int source_node = w.node_of_rank[static_cast<std::size_t>(pair.parts[0].source)];
    const int destination_node = w.node_of_rank[static_cast<std::size_t>(pair.parts[0].destination)];
    pair.sending_host = pick_host(sources, destination_node, pair.channel);
    pair.receiving_host = pick_host(destinations, source_node, pair.channel);
    pair.half_bytes = round_up(pair.bytes + sizeof(MessageTrailer), line);
    pairs.push_back(std::move(pair));
  }
  return pairs;
}

// Each host's pairs one after the other at the front of its plan segment part.
std::size_t place_in_hosts(std::vector<NodePair>& pairs, int me) {
  std::map<int, std::size_t> used;
  for (NodePair& pair : pairs) {
    std::size_t& offset = used[pair.my_host()];
    pair.host_offset = offset;
    offset += sizeof(PairCounters) + 2 * pair.half_bytes;
  }
  return round_up(used[me], line);
}

// What decides, reduced over all ranks (MPI_MAX) once the ranks agree to consider combining:
// whether anything crosses nodes, whether some pair has several parts, the largest message and
// combined message, and what rules combining out.
enum Fact {
  any_inter, most_parts, largest_part, largest_pair, partitioned, by_reply, shared_memory_mpi, short_of_requests,
  facts
};

std::vector<std::uint64_t> reduce_facts(PlanState& p, const std::vector<NodePair>& pairs, bool short_of_requests_here,
                                        const std::string& context) {
  std::vector<std::uint64_t> f(facts, 0);
  f[short_of_requests] = short_of_requests_here;
  f[partitioned] = p.partition_base.empty() ? 0 : 1;
  f[by_reply] = p.acknowledge_by_reply ? 1 : 0;
  int machine_size = 0;  // ranks that really share memory with this one: all of them when nodes are emulated
  check_mpi(MPI_Comm_size(p.w->physical_node_comm, &machine_size), "MPI_Comm_size");
  f[shared_memory_mpi] = machine_size == p.w->size ? 1 : 0;
  for (const NodePair& pair : pairs) {
    f[any_inter] = 1;
    f[most_parts] = std::max<std::uint64_t>(f[most_parts], pair.parts.size());
    f[largest_pair] = std::max<std::uint64_t>(f[largest_pair], pair.bytes);
    for (const PairPart& part : pair.parts) f[largest_part] = std::max<std::uint64_t>(f[largest_part], part.bytes);
  }
  MPI_Request request;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, f.data(), facts, MPI_UINT64_T, MPI_MAX, p.comm, &request), "MPI_Iallreduce");
  wait_request(*p.w, request, context + ": whether to combine messages between nodes");
  return f;
}

// Before anything is gathered, one reduction: every rank's mode (with its complement, to see a
// mismatch) and whether any slot crosses nodes. Throws Errc::mismatch on every rank if the modes
// differ; otherwise the reason not to combine that needs no more ("" if none).
std::string agree_on_mode(PlanState& p, const std::string& context) {
  bool inter = false;
  for (std::size_t s = 0; s < p.send_pieces.size() && !inter; ++s) inter = slot_between_nodes(p, s);
  std::uint64_t f[3] = {static_cast<std::uint64_t>(p.aggregation), 2 - static_cast<std::uint64_t>(p.aggregation),
                        inter ? 1U : 0U};
  MPI_Request request;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, f, 3, MPI_UINT64_T, MPI_MAX, p.comm, &request), "MPI_Iallreduce");
  wait_request(*p.w, request, context + ": whether to combine messages between nodes");
  if (f[0] + f[1] != 2)
    throw_if_any(*p.w, p.comm, {"ranks disagree on whether to combine messages between nodes (Plan::aggregate or "
                                "GHOSTWIRE_AGGREGATE must be the same on every rank)"},
                 Errc::mismatch, context);
  if (p.aggregation == Aggregation::off) return "off";
  if (!f[2]) return "no message travels between nodes";
  return "";
}

// Why the plan does not combine, or "" if it does.
std::string reason_against(const PlanState& p, const std::vector<std::uint64_t>& f, const InterNodeTransport& transport) {
  if (!f[any_inter]) return "no message travels between nodes";
  if (!transport.messages) return "it needs the two-sided transport, and messages travel by " + transport.reason;
  if (f[partitioned]) return "partitioned messages travel as partitions";
  if (f[by_reply]) return "acknowledge_by_reply() plans run slot by slot";
  if (f[short_of_requests]) return "its hosts would need more persistent requests than the process's budget leaves";
  if (f[largest_pair] > static_cast<std::uint64_t>(INT_MAX) - sizeof(MessageTrailer))
    return "a combined message of " + std::to_string(f[largest_pair]) + " bytes would exceed what one MPI message carries";
  if (const TagLimit limit = message_tag_limit(p); 2 * static_cast<long>(p.channels) - 1 > limit.value)
    return "its " + std::to_string(p.channels) + " channels would need tags up to " +
           std::to_string(2 * static_cast<long>(p.channels) - 1) + ", above " + limit.name;
  if (p.aggregation == Aggregation::node) return "";
  if (f[shared_memory_mpi])
    return "the nodes are emulated on one machine, where MPI moves each message through shared memory (auto)";
  if (f[most_parts] < aggregate_automatic_parts)
    return "no pair of nodes carries " + std::to_string(aggregate_automatic_parts) + " messages or more (auto)";
  if (f[largest_part] > aggregate_automatic_bytes)
    return "a message of " + std::to_string(f[largest_part]) + " bytes is above the " +
           std::to_string(aggregate_automatic_bytes) + " bytes auto combines";
  return "";
}

std::string mode_source(const PlanState& p) {
  const char* name = aggregation_name(p.aggregation);
  if (p.aggregation_chosen_by_plan) return std::string("Plan::aggregate: ") + name;
  return std::string("GHOSTWIRE_AGGREGATE=") + name;
}

}  // namespace

std::int32_t NodePairs::find(bool outgoing, int other_node, std::size_t channel) const {
  const auto found = by_key.find(pair_key(outgoing, other_node, channel));
  return found == by_key.end() ? -1 : found->second;
}

const PathType& aggregated_path();

NodePairs* pairs_of(PlanState& p) {
  auto* state = static_cast<NodePairs*>(p.path_states[path_index(aggregated_path())].get());
  return state && state->combined ? state : nullptr;
}
const NodePairs* pairs_of(const PlanState& p) { return pairs_of(const_cast<PlanState&>(p)); }

PairCounters& pair_counters(PlanState& p, const NodePair& pair) {
  return *reinterpret_cast<PairCounters*>(pairs_of(p)->segment->peer_data(pair.my_host()) + pair.host_offset);
}

std::byte* pair_half(PlanState& p, const NodePair& pair, int parity) {
  return pairs_of(p)->segment->peer_data(pair.my_host()) + pair.host_offset + sizeof(PairCounters) +
         static_cast<std::size_t>(parity) * pair.half_bytes;
}

std::unique_ptr<NodePairs> choose_aggregation(PlanState& p, std::size_t largest_slot_count,
                                              const std::string& context) {
  auto node_pairs = std::make_unique<NodePairs>();
  if (const std::string against = agree_on_mode(p, context); !against.empty()) {
    node_pairs->reason = "each its own message (" + mode_source(p) + "): " + against;
    return node_pairs;
  }
  std::vector<NodePair> pairs = make_pairs(p, node_records(p, context));
  // Two persistent requests per pair this rank hosts, from the budget the message paths share.
  std::size_t requests = 0;
  for (const NodePair& pair : pairs) requests += pair.my_host() == p.w->rank ? 2 : 0;
  const bool reserved = requests == 0 || reserve_persistent_requests(requests);
  const std::vector<std::uint64_t> f = reduce_facts(p, pairs, !reserved, context);
  const std::string against = reason_against(p, f, inter_node_transport(p, largest_slot_count));
  if (!against.empty()) {
    if (reserved) return_persistent_requests(requests);
    node_pairs->reason = "each its own message (" + mode_source(p) + "): " + against;
    return node_pairs;
  }
  node_pairs->combined = true;
  node_pairs->pairs = std::move(pairs);
  node_pairs->reserved_requests = requests;
  for (std::size_t i = 0; i < node_pairs->pairs.size(); ++i) {
    const NodePair& pair = node_pairs->pairs[i];
    node_pairs->by_key[pair_key(pair.outgoing, pair.other_node, pair.channel)] = static_cast<std::int32_t>(i);
  }
  node_pairs->hosted_bytes = place_in_hosts(node_pairs->pairs, p.w->rank);
  node_pairs->segment = std::make_unique<Segment>(*p.world, std::max<std::size_t>(node_pairs->hosted_bytes, line), 0);
  for (const NodePair& pair : node_pairs->pairs)
    if (pair.outgoing && pair.sending_host == p.w->rank) {
      ++node_pairs->hosted_messages;
      for (const PairPart& part : pair.parts) node_pairs->hosted_message_bytes += part.bytes;
    }
  check_mpi(MPI_Comm_dup(p.comm, &node_pairs->comm), "MPI_Comm_dup");
  node_pairs->reason = "one message per pair of nodes and channel (" + mode_source(p) +
                       (p.aggregation == Aggregation::node
                            ? ")"
                            : ": a pair of nodes carries " + std::to_string(f[most_parts]) +
                                  " messages, none above " + std::to_string(aggregate_automatic_bytes) + " bytes)");
  return node_pairs;
}

void NodePairs::describe(const PlanState& p, std::ostream& text) const {
  if (p.reaches_mpi) text << "  messages between nodes: " << reason << "\n";
}

// A combined message counts once, for the rank that sends it.
void NodePairs::add_traffic(const PlanState&, PlanTraffic& traffic) const {
  traffic.inter_node_messages += hosted_messages;
  traffic.inter_node_bytes += hosted_message_bytes;
}

namespace {

// A wait of the world serves a bounded share of the pairs each time, in turns: a plan of many
// channels hosts many pairs, and a wait on something else should not test them all each poll.
void serve_node_pairs(void* plan) { progress_node_pairs(*static_cast<PlanState*>(plan), pair_all, 64); }

void start_hosted(PlanState& p, HostedPair& hosted) {
  NodePairs& np = *pairs_of(p);
  const NodePair& pair = np.pairs[hosted.pair];
  std::memset(static_cast<void*>(&pair_counters(p, pair)), 0, sizeof(PairCounters));
  const int count = static_cast<int>(pair.bytes + sizeof(MessageTrailer));
  for (int parity = 0; parity < 2; ++parity) {
    const int tag = static_cast<int>(2 * pair.channel) + parity;
    if (pair.outgoing) {
      check_mpi(MPI_Send_init(pair_half(p, pair, parity), count, MPI_BYTE, pair.receiving_host, tag, np.comm,
                              &hosted.request[parity]),
                "MPI_Send_init");
    } else {
      check_mpi(MPI_Recv_init(pair_half(p, pair, parity), count, MPI_BYTE, pair.sending_host, tag, np.comm,
                              &hosted.request[parity]),
                "MPI_Recv_init");
      check_mpi(MPI_Start(&hosted.request[parity]), "MPI_Start");
      hosted.active[parity] = true;
    }
  }
}

}  // namespace

void NodePairs::after_build(PlanState& p) {
  if (!combined) return;
  NodePairs& np = *this;
  np.hosted_of.assign(np.pairs.size(), -1);
  for (std::size_t i = 0; i < np.pairs.size(); ++i)
    if (np.pairs[i].my_host() == p.w->rank) {
      np.hosted_of[i] = static_cast<std::int32_t>(np.hosted.size());
      np.hosted.push_back(HostedPair{i});
    }
  for (HostedPair& one : np.hosted) start_hosted(p, one);
  if (!np.hosted.empty()) p.w->owed_work.push_back({&serve_node_pairs, &p});
}

}  // namespace ghostwire::detail
