// SPDX-License-Identifier: BSD-3-Clause
// Commit's descriptor phases (descriptor_exchange.hpp).
#include "halo/commit/descriptor_exchange.hpp"

#include "ghostwire/error.hpp"
#include "halo/collective.hpp"
#include "halo/commit/slot_pieces.hpp"
#include "halo/commit/wire.hpp"
#include "halo/path_registry.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {
namespace {

SideDescriptor describe_side(const SideChoice& choice) {
  SideDescriptor side;
  side.candidates = choice.candidates;
  side.segment_offset = choice.segment_offset;
  for (std::uint8_t index : choice.candidates) {
    const PathType& type = *registered_paths()[index];
    WireWriter out;
    type.describe_side(choice.side, out);
    if (!out.bytes().empty()) side.sections.push_back({index, type.section_version(), std::move(out.bytes())});
  }
  return side;
}

SendDescriptor describe_send(const PlanState& p, const SendChoice& choice, std::size_t s) {
  SendDescriptor send;
  send.signature = signature_of(p, p.send_pieces[s]);
  send.split_runs = choice.split.runs;
  for (const SideChoice& part : choice.parts) send.parts.push_back(describe_side(part));
  return send;
}

ReceiveDescriptor describe_receive(const PlanState& p, const SideChoice& choice, std::size_t s) {
  return {signature_of(p, p.receive_pieces[s]), describe_side(choice)};
}

// One channel's two directions, as both ranks see them; `me` and `peer` name the ranks.
// Both directions' parts have a path both ends take.
void check_paths(const PlanState& p, const SlotChoices& choices, std::size_t s, const ChannelDescriptor& theirs,
                 const std::string& me, const std::string& peer, std::vector<std::string>& problems) {
  const std::string channel = p.channel_name(s % p.channels);
  std::string problem;
  if (choices.sends[s] && theirs.receive)
    for (const SideChoice& part : choices.sends[s]->parts)
      if (!agree_on_path(part.candidates, theirs.receive->side.candidates, problem))
        problems.push_back(channel + " from " + me + " to " + peer + ": " + problem);
  if (theirs.send && choices.receives[s])
    for (const SideDescriptor& part : theirs.send->parts)
      if (!agree_on_path(part.candidates, choices.receives[s]->candidates, problem))
        problems.push_back(channel + " from " + peer + " to " + me + ": " + problem);
}

void check_channel(const PlanState& p, std::size_t s, const ChannelDescriptor& theirs, const std::string& me,
                   const std::string& peer, std::vector<std::string>& problems) {
  const std::string channel = p.channel_name(s % p.channels);
  const bool i_receive = !p.receive_pieces[s].empty(), i_send = !p.send_pieces[s].empty();
  const bool they_send = theirs.send.has_value(), they_receive = theirs.receive.has_value();
  if (they_send != i_receive)
    problems.push_back(channel + " from " + peer + " to " + me + ": " +
                       (they_send ? peer + " sends but " + me + " has no receive layout"
                                  : me + " receives but " + peer + " has no send layout"));
  if (i_send != they_receive)
    problems.push_back(channel + " from " + me + " to " + peer + ": " +
                       (i_send ? me + " sends but " + peer + " has no receive layout"
                               : peer + " receives but " + me + " has no send layout"));
  if (they_send && i_receive) {
    const Signature mine = signature_of(p, p.receive_pieces[s]);
    if (theirs.send->signature != mine)
      problems.push_back(channel + " from " + peer + " to " + me + ": " + peer + " sends " +
                         theirs.send->signature.describe() + " but " + me + " receives " + mine.describe());
  }
  if (i_send && they_receive) {
    const Signature mine = signature_of(p, p.send_pieces[s]);
    if (theirs.receive->signature != mine)
      problems.push_back(channel + " from " + me + " to " + peer + ": " + me + " sends " + mine.describe() + " but " +
                         peer + " receives " + theirs.receive->signature.describe());
  }
}

// Both ranks cut each message into the same number of partitions (their sizes are then checked
// partition by partition, as messages).
bool partitions_agree(const PlanState& p, std::size_t n, std::size_t c, const PartitionCounts& theirs,
                      const std::string& me, const std::string& peer, std::vector<std::string>& problems) {
  const std::size_t user = n * p.user_channels + c;
  const std::uint32_t i_send = p.send_partition_count[user], i_receive = p.receive_partition_count[user];
  bool agree = true;
  auto report = [&](const std::string& from, const std::string& to, std::uint32_t sender, std::uint32_t receiver) {
    problems.push_back("channel " + std::to_string(c) + " from " + from + " to " + to + ": " + from +
                       " sends it in " + std::to_string(sender) + " partition(s) but " + to + " receives it in " +
                       std::to_string(receiver) + " (Plan::partition_send and Plan::partition_receive must agree)");
    agree = false;
  };
  if (theirs.send != i_receive) report(peer, me, theirs.send, i_receive);
  if (i_send != theirs.receive) report(me, peer, i_send, theirs.receive);
  auto report_combined = [&](const std::string& combining, const std::string& other) {
    problems.push_back("channel " + std::to_string(c) + " between " + me + " and " + peer + ": " + combining +
                       " combines its partitions into one message but " + other + " expects them one by one "
                       "(GHOSTWIRE_PARTITIONS must be the same on both ranks)");
    agree = false;
  };
  if (agree && theirs.send > 1 && theirs.send_combined != (p.receive_combined[user] != 0))
    report_combined(theirs.send_combined ? peer : me, theirs.send_combined ? me : peer);
  if (agree && i_send > 1 && (p.send_combined[user] != 0) != theirs.receive_combined)
    report_combined(p.send_combined[user] ? me : peer, p.send_combined[user] ? peer : me);
  // A combined message's cut, as separate partitions' sizes are checked slot by slot.
  auto cut_text = [](const auto& cut) {
    std::string text;
    for (const auto elements : cut) text += (text.empty() ? "" : ", ") + std::to_string(elements);
    return text;
  };
  auto compare_cuts = [&](const std::string& from, const std::string& to, const std::vector<std::uint64_t>& sender,
                          const std::vector<std::uint64_t>& receiver) {
    if (sender.empty() || receiver.empty() || sender == receiver) return;
    problems.push_back("channel " + std::to_string(c) + " from " + from + " to " + to + ": " + from +
                       " sends partitions of " + cut_text(sender) + " elements but " + to + " receives partitions of " +
                       cut_text(receiver));
    agree = false;
  };
  if (agree) {
    compare_cuts(peer, me, theirs.send_cut, {p.receive_cut[user].begin(), p.receive_cut[user].end()});
    compare_cuts(me, peer, {p.send_cut[user].begin(), p.send_cut[user].end()}, theirs.receive_cut);
  }
  return agree;
}

}  // namespace

NeighbourDescriptor describe_slots_for(const PlanState& p, const MessageMemory& memory, const SlotChoices& choices,
                                       std::size_t n) {
  NeighbourDescriptor d;
  d.paths = registry_fingerprint();
  d.neighbours = p.neighbours.size();
  d.receiver_index = n;
  d.posted_offset = memory.posted;  // where my counters are: they depend on my own slot count
  d.acknowledgement_offset = memory.acknowledgements;
  d.acknowledge_by_reply = p.acknowledge_by_reply;
  for (std::size_t c = 0; c < p.user_channels; ++c) {
    const std::size_t user = n * p.user_channels + c;
    d.partitions.push_back({p.send_partition_count[user], p.receive_partition_count[user], p.send_combined[user] != 0,
                            p.receive_combined[user] != 0,
                            std::vector<std::uint64_t>(p.send_cut[user].begin(), p.send_cut[user].end()),
                            std::vector<std::uint64_t>(p.receive_cut[user].begin(), p.receive_cut[user].end())});
  }
  d.channels.resize(p.channels);
  for (std::size_t c = 0; c < p.channels; ++c) {
    const std::size_t s = n * p.channels + c;
    if (choices.sends[s]) d.channels[c].send = describe_send(p, *choices.sends[s], s);
    if (choices.receives[s]) d.channels[c].receive = describe_receive(p, *choices.receives[s], s);
  }
  return d;
}

std::vector<NeighbourDescriptor> exchange_descriptors(PlanState& p, const MessageMemory& memory,
                                                      const SlotChoices& choices, const std::string& context) {
  std::vector<std::vector<std::byte>> outgoing;
  for (std::size_t n = 0; n < p.neighbours.size(); ++n)
    outgoing.push_back(encode(describe_slots_for(p, memory, choices, n)));
  const auto incoming = swap_with_peers(*p.w, p.comm, p.neighbours, outgoing, context + ": the slot descriptors");
  std::vector<NeighbourDescriptor> peers(p.neighbours.size());
  std::vector<std::string> problems;
  Errc code = Errc::internal;
  for (std::size_t n = 0; n < p.neighbours.size(); ++n) {
    try {
      peers[n] = decode(incoming[n], "rank " + std::to_string(p.neighbours[n]));
    } catch (const Error& error) {
      problems.push_back(error.what());
      code = error.code();
    }
  }
  throw_if_any(*p.w, p.comm, problems, code, context);
  return peers;
}

std::vector<std::string> check_agreement(const PlanState& p, const SlotChoices& choices,
                                         const std::vector<NeighbourDescriptor>& peers) {
  std::vector<std::string> problems;
  const std::string me = "rank " + std::to_string(p.w->rank);
  for (std::size_t n = 0; n < p.neighbours.size(); ++n) {
    const NeighbourDescriptor& theirs = peers[n];
    const std::string peer = "rank " + std::to_string(p.neighbours[n]);
    if (theirs.paths != registry_fingerprint()) {
      problems.push_back(me + " and " + peer + " have different message paths registered (" + me + ": " +
                         path_names() + "); every rank must register the same paths in the same order");
      continue;
    }
    if (theirs.acknowledge_by_reply != p.acknowledge_by_reply)
      problems.push_back((p.acknowledge_by_reply ? me : peer) + " acknowledges by reply (Plan::acknowledge_by_reply) but " +
                         (p.acknowledge_by_reply ? peer : me) + " does not; both sides must agree");
    if (theirs.partitions.size() != p.user_channels || theirs.channels.size() != p.channels) {
      problems.push_back(me + " has " + std::to_string(p.user_channels) + " channels but its neighbour " + peer +
                         " has " + std::to_string(theirs.partitions.size()));
      continue;
    }
    for (std::size_t c = 0; c < p.user_channels; ++c) {
      if (!partitions_agree(p, n, c, theirs.partitions[c], me, peer, problems)) continue;
      const std::size_t first = p.partition_base.empty() ? c : p.partition_base[c];
      const std::size_t last = p.partition_base.empty() ? c + 1 : p.partition_base[c + 1];
      for (std::size_t k = first; k < last; ++k) {
        const std::size_t before = problems.size();
        check_channel(p, n * p.channels + k, theirs.channels[k], me, peer, problems);
        if (problems.size() == before) check_paths(p, choices, n * p.channels + k, theirs.channels[k], me, peer, problems);
      }
    }
  }
  return problems;
}

}  // namespace ghostwire::detail
