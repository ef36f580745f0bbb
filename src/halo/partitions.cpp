// SPDX-License-Identifier: BSD-3-Clause
// Partitions (docs/plans.md, "Partitions"): the user's description of how each direction of a
// (channel, neighbour) is cut, and commit's first phase, which turns every partition into a slot of
// its own. The user's channel c becomes the plan's channels [partition_base[c], partition_base[c+1]),
// as many as the most partitions any rank cuts it into, so both ranks of a slot number the plan's
// channels alike; everything after this phase (paths, descriptors, calls) sees ordinary slots.
#include <algorithm>
#include <numeric>

#include "ghostwire/error.hpp"
#include "ghostwire/plan.hpp"
#include "halo/collective.hpp"
#include "halo/combined_partitions.hpp"
#include "halo/commit/slot_pieces.hpp"
#include "halo/partitions.hpp"
#include "halo/plan_state.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire {

namespace detail {

PlanState& require_state(const std::unique_ptr<PlanState>& state, const char* call);  // plan_calls.cpp

namespace {

std::size_t elements_of(const std::vector<PieceSpec>& pieces) {
  std::size_t total = 0;
  for (const PieceSpec& piece : pieces) total += piece.layout.count();
  return total;
}

// The element counts of each partition, or a problem (returned as text) if they cannot be.
std::vector<std::size_t> resolve(const PartitionSpec& spec, std::size_t elements, std::string& problem) {
  if (spec.elements.empty()) {
    if (spec.count > elements && spec.count > 1) {
      problem = "cannot be cut into " + std::to_string(spec.count) + " partitions: it has " +
                std::to_string(elements) + " elements";
      return {};
    }
    std::vector<std::size_t> counts(spec.count, elements / spec.count);
    for (std::size_t i = 0; i < elements % spec.count; ++i) ++counts[i];
    return counts;
  }
  const std::size_t total = std::accumulate(spec.elements.begin(), spec.elements.end(), std::size_t{0});
  if (total != elements)
    problem = "its partitions hold " + std::to_string(total) + " elements but the message has " +
              std::to_string(elements);
  return spec.elements;
}

// Elements [from, from + count) of a layout, in message order.
Layout slice(const Layout& layout, std::size_t from, std::size_t count) {
  if (from == 0 && count == layout.count()) return layout;
  if (layout.kind() == Layout::Kind::indices) {
    const auto& all = layout.index_list();
    const auto first = all.begin() + static_cast<std::ptrdiff_t>(from);
    return Layout::indices({first, first + static_cast<std::ptrdiff_t>(count)});
  }
  std::vector<Layout::Range> ranges;
  std::size_t skip = from, left = count;
  layout.for_each_run([&](std::size_t first, std::size_t length) {
    if (left == 0) return;
    if (skip >= length) {
      skip -= length;
      return;
    }
    const std::size_t take = std::min(length - skip, left);
    ranges.push_back({first + skip, take});
    skip = 0;
    left -= take;
  });
  return Layout::ranges(std::move(ranges));
}

// A message's pieces cut into partitions of the given element counts, in message order.
std::vector<std::vector<PieceSpec>> cut(const std::vector<PieceSpec>& pieces, const std::vector<std::size_t>& counts) {
  std::vector<std::vector<PieceSpec>> parts(counts.size());
  std::size_t part = 0, left = counts.empty() ? 0 : counts[0];
  for (const PieceSpec& piece : pieces) {
    std::size_t done = 0;
    while (done < piece.layout.count()) {
      while (left == 0) left = counts[++part];
      const std::size_t take = std::min(piece.layout.count() - done, left);
      parts[part].push_back({piece.region, slice(piece.layout, done, take)});
      done += take;
      left -= take;
    }
  }
  return parts;
}

// Every direction's partition counts, or problems naming the slots.
struct Resolved {
  std::vector<std::vector<std::size_t>> send, receive;  // by user slot
  std::vector<std::uint8_t> send_combined, receive_combined;  // by user slot: one message between nodes
  std::vector<unsigned long> most;  // by user channel, this rank: the plan channels it needs
};

Resolved resolve_all(const PlanState& p, std::vector<std::string>& problems) {
  Resolved r;
  const std::size_t slots = p.send_pieces.size();
  r.send.resize(slots);
  r.receive.resize(slots);
  r.send_combined.assign(slots, 0);
  r.receive_combined.assign(slots, 0);
  r.most.assign(p.user_channels, 1);
  auto one = [&](const std::vector<PieceSpec>& pieces, const PartitionSpec& spec, std::size_t s, const char* what,
                 std::vector<std::size_t>& out, std::uint8_t& combined) {
    std::string problem;
    out = resolve(spec, elements_of(pieces), problem);
    if (!problem.empty())
      problems.push_back(std::string(what) + " " + p.slot_name(s % p.channels, p.neighbours[s / p.channels]) + ": " +
                         problem);
    if (pieces.empty()) return;
    combined = combine_partitions(p, s, message_bytes(p, pieces), out.size()) ? 1 : 0;
    if (!combined) r.most[s % p.channels] = std::max<unsigned long>(r.most[s % p.channels], out.size());
  };
  for (std::size_t s = 0; s < slots; ++s) {
    one(p.send_pieces[s], p.send_partition_specs[s], s, "the send on", r.send[s], r.send_combined[s]);
    one(p.receive_pieces[s], p.receive_partition_specs[s], s, "the receive on", r.receive[s], r.receive_combined[s]);
  }
  return r;
}

// The pieces of one direction, by the plan's slots.
// The pieces of one direction, by the plan's slots; a combined message stays whole in its first.
std::vector<std::vector<PieceSpec>> spread(const PlanState& p, const std::vector<std::vector<PieceSpec>>& pieces,
                                           const std::vector<std::vector<std::size_t>>& counts,
                                           const std::vector<std::uint8_t>& combined) {
  std::vector<std::vector<PieceSpec>> plan_pieces(p.neighbours.size() * p.partition_base.back());
  for (std::size_t s = 0; s < pieces.size(); ++s) {
    if (pieces[s].empty()) continue;
    const std::size_t n = s / p.user_channels, c = s % p.user_channels;
    const std::size_t first = n * p.partition_base.back() + p.partition_base[c];
    if (combined[s]) {
      plan_pieces[first] = pieces[s];
      continue;
    }
    std::vector<std::vector<PieceSpec>> parts = cut(pieces[s], counts[s]);
    for (std::size_t i = 0; i < parts.size(); ++i) plan_pieces[first + i] = std::move(parts[i]);
  }
  return plan_pieces;
}

std::vector<std::uint32_t> counts_of(const std::vector<std::vector<std::size_t>>& counts) {
  std::vector<std::uint32_t> out;
  for (const auto& partitions : counts) out.push_back(static_cast<std::uint32_t>(std::max<std::size_t>(1, partitions.size())));
  return out;
}

// Elementwise maximum over all ranks (`values` the same length everywhere).
void maximum_over_ranks(PlanState& p, std::vector<unsigned long>& values, const std::string& what) {
  MPI_Request request;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_UNSIGNED_LONG, MPI_MAX,
                           p.comm, &request),
            "MPI_Iallreduce");
  wait_request(*p.w, request, what);
}

}  // namespace

void expand_partitions(PlanState& p, const std::string& context) {
  std::vector<std::string> problems;
  Resolved r = resolve_all(p, problems);
  throw_if_any(*p.w, p.comm, problems, Errc::invalid_argument, context);
  p.user_channel_of.resize(p.user_channels);
  std::iota(p.user_channel_of.begin(), p.user_channel_of.end(), std::size_t{0});
  p.send_partition_count = counts_of(r.send);
  p.receive_partition_count = counts_of(r.receive);
  p.send_combined = r.send_combined;
  p.receive_combined = r.receive_combined;
  p.send_cut.assign(r.send.size(), {});
  p.receive_cut.assign(r.receive.size(), {});
  for (std::size_t s = 0; s < r.send.size(); ++s) {
    if (r.send_combined[s]) p.send_cut[s] = r.send[s];
    if (r.receive_combined[s]) p.receive_cut[s] = r.receive[s];
  }
  // Ranks may disagree on the channel count (check_agreement reports it): first the largest count
  // and whether anyone cuts a message at all, then the partitions of every channel.
  const bool mine = std::any_of(r.most.begin(), r.most.end(), [](unsigned long most) { return most > 1; });
  std::vector<unsigned long> shape{p.user_channels, mine ? 1ul : 0ul};
  maximum_over_ranks(p, shape, context + ": the channel and partition counts of all ranks");
  if (shape[1] == 0) return;
  r.most.resize(shape[0], 1);
  maximum_over_ranks(p, r.most, context + ": the partition counts of all ranks");
  p.partition_base.assign(1, 0);
  p.user_channel_of.clear();
  for (std::size_t c = 0; c < r.most.size(); ++c) {
    p.partition_base.push_back(p.partition_base.back() + r.most[c]);
    p.user_channel_of.insert(p.user_channel_of.end(), r.most[c], c);
  }
  p.send_pieces = spread(p, p.send_pieces, r.send, r.send_combined);
  p.receive_pieces = spread(p, p.receive_pieces, r.receive, r.receive_combined);
  p.channels = p.partition_base.back();
}

std::string PlanState::channel_name(std::size_t channel) const {
  if (partition_base.empty()) return "channel " + std::to_string(channel);
  const std::size_t user = user_channel_of[channel], first = partition_base[user];
  if (partition_base[user + 1] - first == 1) return "channel " + std::to_string(user);
  return "channel " + std::to_string(user) + " (partition " + std::to_string(channel - first) + ")";
}

std::string PlanState::slot_name(std::size_t channel, int rank) const {
  return channel_name(channel) + " with rank " + std::to_string(rank);
}

std::size_t PlanState::user_slot(std::size_t channel, int neighbour_rank, const char* call) const {
  if (channel >= user_channels)
    raise(Errc::out_of_range, std::string(call) + ": channel " + std::to_string(channel) + " is not in [0, " +
                                  std::to_string(user_channels) + ") of plan " + std::to_string(id));
  const int n = neighbour_rank >= 0 && static_cast<std::size_t>(neighbour_rank) < neighbour_index.size()
                    ? neighbour_index[static_cast<std::size_t>(neighbour_rank)]
                    : -1;
  if (n < 0)
    raise(Errc::out_of_range, std::string(call) + ": rank " + std::to_string(neighbour_rank) +
                                  " is not a neighbour in plan " + std::to_string(id));
  return static_cast<std::size_t>(n) * channels + (partition_base.empty() ? channel : partition_base[channel]);
}

std::size_t PlanState::partitions(bool sending, std::size_t channel, int neighbour_rank) const {
  const std::size_t s = static_cast<std::size_t>(neighbour_index[static_cast<std::size_t>(neighbour_rank)]) *
                            user_channels + channel;
  if (!committed) {
    const PartitionSpec& spec = (sending ? send_partition_specs : receive_partition_specs)[s];
    return spec.elements.empty() ? spec.count : spec.elements.size();
  }
  return (sending ? send_partition_count : receive_partition_count)[s];
}

}  // namespace detail

using detail::PlanState;

namespace {

detail::PartitionSpec& spec_for(PlanState& p, bool sending, std::size_t channel, int neighbour, const char* call) {
  if (p.committed)
    raise(Errc::state, std::string(call) + ": plan " + std::to_string(p.id) +
                           " is already committed; cut messages into partitions before commit()");
  const std::size_t s = p.slot(channel, neighbour, call);
  return (sending ? p.send_partition_specs : p.receive_partition_specs)[s];
}

void set_elements(PlanState& p, bool sending, std::size_t channel, int neighbour,
                  std::span<const std::size_t> elements, const char* call) {
  detail::PartitionSpec& spec = spec_for(p, sending, channel, neighbour, call);
  if (elements.empty()) raise(Errc::invalid_argument, std::string(call) + ": no partitions given");
  for (std::size_t i = 0; i < elements.size(); ++i)
    if (elements[i] == 0)
      raise(Errc::invalid_argument, std::string(call) + ": partition " + std::to_string(i) +
                                        " has 0 elements; every partition needs at least one");
  spec.elements.assign(elements.begin(), elements.end());
  spec.count = elements.size();
}

void set_count(PlanState& p, bool sending, std::size_t channel, int neighbour, std::size_t count, const char* call) {
  detail::PartitionSpec& spec = spec_for(p, sending, channel, neighbour, call);
  if (count == 0) raise(Errc::invalid_argument, std::string(call) + ": count is 0; a message has at least one partition");
  spec.elements.clear();
  spec.count = count;
}

}  // namespace

Plan& Plan::partition_send(std::size_t channel, int neighbour, std::span<const std::size_t> elements) {
  set_elements(detail::require_state(state_, "Plan::partition_send"), true, channel, neighbour, elements,
               "Plan::partition_send");
  return *this;
}
Plan& Plan::partition_send(std::size_t channel, int neighbour, std::size_t count) {
  set_count(detail::require_state(state_, "Plan::partition_send"), true, channel, neighbour, count,
            "Plan::partition_send");
  return *this;
}
Plan& Plan::partition_receive(std::size_t channel, int neighbour, std::span<const std::size_t> elements) {
  set_elements(detail::require_state(state_, "Plan::partition_receive"), false, channel, neighbour, elements,
               "Plan::partition_receive");
  return *this;
}
Plan& Plan::partition_receive(std::size_t channel, int neighbour, std::size_t count) {
  set_count(detail::require_state(state_, "Plan::partition_receive"), false, channel, neighbour, count,
            "Plan::partition_receive");
  return *this;
}

namespace {

// Checks the channel and the neighbour (as the plan numbers them before and after commit).
void require_slot(const PlanState& p, std::size_t channel, int neighbour, const char* call) {
  if (p.committed)
    p.user_slot(channel, neighbour, call);
  else
    p.slot(channel, neighbour, call);
}

}  // namespace

std::size_t Plan::send_partitions(std::size_t channel, int neighbour) const {
  const PlanState& p = detail::require_state(state_, "Plan::send_partitions");
  require_slot(p, channel, neighbour, "Plan::send_partitions");
  return p.partitions(true, channel, neighbour);
}
std::size_t Plan::receive_partitions(std::size_t channel, int neighbour) const {
  const PlanState& p = detail::require_state(state_, "Plan::receive_partitions");
  require_slot(p, channel, neighbour, "Plan::receive_partitions");
  return p.partitions(false, channel, neighbour);
}

}  // namespace ghostwire
