// SPDX-License-Identifier: BSD-3-Clause
// Plan: construction, the user's description (memory, layouts), commit, and describe(). The
// communicating calls are in plan_calls.cpp, commit's phases in commit/. docs/plans.md.
#include "ghostwire/plan.hpp"

#include <sstream>

#include "ghostwire/error.hpp"
#include "halo/combined_partitions.hpp"
#include "halo/exchange.hpp"
#include "halo/path_dispatch.hpp"
#include "halo/plan_state.hpp"
#include "halo/reverse.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/segment_state.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire {

namespace detail {

PlanState& require_state(const std::unique_ptr<PlanState>& state, const char* call);  // plan_calls.cpp

std::size_t PlanState::slot(std::size_t channel, int neighbour_rank, const char* call) const {
  if (channel >= channels)
    raise(Errc::out_of_range, std::string(call) + ": channel " + std::to_string(channel) + " is not in [0, " +
                                  std::to_string(channels) + ") of plan " + std::to_string(id));
  const int n = neighbour_rank >= 0 && static_cast<std::size_t>(neighbour_rank) < neighbour_index.size()
                    ? neighbour_index[static_cast<std::size_t>(neighbour_rank)]
                    : -1;
  if (n < 0)
    raise(Errc::out_of_range, std::string(call) + ": rank " + std::to_string(neighbour_rank) +
                                  " is not a neighbour in plan " + std::to_string(id));
  return static_cast<std::size_t>(n) * channels + channel;
}

PlanState::~PlanState() {
  // The user finalised MPI first: no request or communicator may be touched (the segment's own
  // destructor skips its windows likewise).
  if (mpi_finalized()) return;
  // First: the waits below must not serve (write into peers for) a plan that is going.
  if (w) std::erase_if(w->owed_work, [&](const WorldState::OwedWork& work) { return work.context == this; });
  if (comm == MPI_COMM_NULL) return;
  if (w && w->broken) return;  // cancelling and freeing could wait for a dead peer (WorldState::broken)
  try {
    for (const auto& state : path_states)  // collective, in registry order: plans are destroyed together
      if (state) state->drain(*this);
  } catch (const std::exception&) {
    // A destructor must not throw; the timeout diagnostic has been printed.
  }
  for (SendSlot& slot : sends) release(*this, slot);
  for (ReceiveSlot& slot : receives) release(*this, slot);
  for (const auto& state : path_states)
    if (state) state->release(*this);
  MPI_Comm_free(&comm);
}

}  // namespace detail

using detail::PlanState;

Plan::Plan(World& world, std::span<const int> neighbours, std::size_t channels)
    : state_(std::make_unique<PlanState>()) {
  detail::require_mpi_running("Plan");
  PlanState& p = *state_;
  p.world = &world;
  p.w = &detail::world_state(world);
  p.id = p.w->next_plan_id++;
  p.aggregation = p.w->settings.aggregation;
  if (channels == 0) raise(Errc::invalid_argument, "Plan: channels is 0; a plan needs at least one channel");
  p.channels = p.user_channels = channels;
  p.neighbour_index.assign(static_cast<std::size_t>(world.size()), -1);
  for (int rank : neighbours) {
    if (rank < 0 || rank >= world.size())
      raise(Errc::out_of_range, "Plan: neighbour rank " + std::to_string(rank) + " is not in [0, " +
                                    std::to_string(world.size()) + ")");
    if (p.neighbour_index[static_cast<std::size_t>(rank)] >= 0)
      raise(Errc::invalid_argument, "Plan: neighbour rank " + std::to_string(rank) +
                                        " is listed twice; use channels to send several messages to one rank");
    p.neighbour_index[static_cast<std::size_t>(rank)] = static_cast<int>(p.neighbours.size());
    p.neighbours.push_back(rank);
  }
  const std::size_t slots = p.neighbours.size() * channels;
  if (slots > (std::size_t{1} << 24))
    raise(Errc::invalid_argument, "Plan: " + std::to_string(slots) + " channel x neighbour slots exceed the limit of 16777216");
  p.send_pieces.resize(slots);
  p.receive_pieces.resize(slots);
  p.send_partition_specs.resize(slots);
  p.receive_partition_specs.resize(slots);
}

Plan::~Plan() = default;
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;

Region Plan::add_memory(Segment& segment, std::size_t element_size, std::size_t offset_bytes, std::size_t bytes) {
  PlanState& p = detail::require_state(state_, "Plan::add_memory");
  if (element_size == 0) raise(Errc::invalid_argument, "Plan::add_memory: element_size is 0");
  if (offset_bytes > segment.size())
    raise(Errc::out_of_range, "Plan::add_memory: offset " + std::to_string(offset_bytes) + " is beyond the segment's " +
                                  std::to_string(segment.size()) + " bytes");
  if (bytes == static_cast<std::size_t>(-1)) bytes = segment.size() - offset_bytes;
  if (bytes > segment.size() - offset_bytes)
    raise(Errc::out_of_range, "Plan::add_memory: bytes [" + std::to_string(offset_bytes) + ", " +
                                  std::to_string(offset_bytes + bytes) + ") exceed the segment's " +
                                  std::to_string(segment.size()) + " bytes");
  if (&segment.world() != p.world)
    raise(Errc::invalid_argument, "Plan::add_memory: the segment belongs to another World than the plan");
  p.regions.push_back({segment.id(), offset_bytes, segment.data() + offset_bytes, bytes, element_size});
  return Region{static_cast<int>(p.regions.size() - 1)};
}

Region Plan::add_memory(void* base, std::size_t bytes, std::size_t element_size) {
  PlanState& p = detail::require_state(state_, "Plan::add_memory");
  if (element_size == 0) raise(Errc::invalid_argument, "Plan::add_memory: element_size is 0");
  if (base == nullptr && bytes > 0) raise(Errc::invalid_argument, "Plan::add_memory: base is null");
  // Memory inside one of the world's Segments is that Segment's memory, however it was given (a
  // ghost array placed in a Segment and handed to make_unstructured_plan by pointer, say): node
  // peers can then map it, so it can be read in place or pushed into instead of staged.
  auto* start = static_cast<std::byte*>(base);
  for (const detail::SegmentState* segment : p.w->segments) {
    if (segment == nullptr || start == nullptr) continue;
    std::byte* data = segment->data();
    const std::size_t size = segment->sizes[static_cast<std::size_t>(p.w->rank)];
    if (start >= data && start <= data + size && bytes <= static_cast<std::size_t>(data + size - start)) {
      p.regions.push_back({segment->id, static_cast<std::size_t>(start - data), start, bytes, element_size});
      return Region{static_cast<int>(p.regions.size() - 1)};
    }
  }
  p.regions.push_back({-1, 0, start, bytes, element_size});
  return Region{static_cast<int>(p.regions.size() - 1)};
}

static void add_piece(PlanState& p, std::vector<std::vector<detail::PieceSpec>>& pieces, std::size_t channel,
                      int neighbour, Region region, const Layout& layout, const char* call) {
  if (p.committed) raise(Errc::state, std::string(call) + ": plan " + std::to_string(p.id) + " is already committed");
  if (region.id < 0 || static_cast<std::size_t>(region.id) >= p.regions.size())
    raise(Errc::invalid_argument, std::string(call) + ": region " + std::to_string(region.id) +
                                      " was not returned by add_memory of this plan");
  const auto& spec = p.regions[static_cast<std::size_t>(region.id)];
  const std::size_t elements = spec.bytes / spec.element_size;
  if (layout.count() > 0 && layout.end() > elements)
    raise(Errc::out_of_range, std::string(call) + ": " + p.slot_name(channel, neighbour) + ": layout " +
                                  layout.describe() + " reaches element " + std::to_string(layout.end() - 1) +
                                  " but the region has " + std::to_string(elements) + " elements");
  pieces[p.slot(channel, neighbour, call)].push_back({region.id, layout});
}

Plan& Plan::add_send(std::size_t channel, int neighbour, Region region, const Layout& layout) {
  PlanState& p = detail::require_state(state_, "Plan::add_send");
  add_piece(p, p.send_pieces, channel, neighbour, region, layout, "Plan::add_send");
  return *this;
}

Plan& Plan::add_receive(std::size_t channel, int neighbour, Region region, const Layout& layout) {
  PlanState& p = detail::require_state(state_, "Plan::add_receive");
  add_piece(p, p.receive_pieces, channel, neighbour, region, layout, "Plan::add_receive");
  return *this;
}

Plan& Plan::acknowledge_by_reply() {
  PlanState& p = detail::require_state(state_, "Plan::acknowledge_by_reply");
  if (p.committed)
    raise(Errc::state, "Plan::acknowledge_by_reply: plan " + std::to_string(p.id) +
                           " is already committed; choose how acknowledgements travel before commit()");
  p.acknowledge_by_reply = true;
  return *this;
}

Plan& Plan::aggregate(Aggregation mode) {
  PlanState& p = detail::require_state(state_, "Plan::aggregate");
  if (p.committed)
    raise(Errc::state, "Plan::aggregate: plan " + std::to_string(p.id) +
                           " is already committed; choose how messages between nodes travel before commit()");
  p.aggregation = mode;
  p.aggregation_chosen_by_plan = true;
  return *this;
}

Plan& Plan::intra_path(const std::string& name) {
  PlanState& p = detail::require_state(state_, "Plan::intra_path");
  if (p.committed)
    raise(Errc::state, "Plan::intra_path: plan " + std::to_string(p.id) +
                           " is already committed; choose the path between node peers before commit()");
  if (name.empty())
    raise(Errc::invalid_argument, "Plan::intra_path: the name is empty (\"auto\" for the automatic choice)");
  p.intra_path = name;
  return *this;
}

void Plan::commit() {
  PlanState& p = detail::require_state(state_, "Plan::commit");
  if (p.committed) raise(Errc::state, "Plan::commit: plan " + std::to_string(p.id) + " is already committed");
  detail::require_mpi_running("Plan::commit");
  detail::commit_plan(p);  // checks every rank asked for the reverse exchange, or none
  if (p.reverse_wanted) detail::build_reverse(p);
}

Plan& Plan::enable_reverse() {
  PlanState& p = detail::require_state(state_, "Plan::enable_reverse");
  p.reverse_wanted = true;
  if (p.committed) detail::build_reverse(p);  // collective, as documented
  return *this;
}

bool Plan::reverse_enabled() const { return detail::require_state(state_, "Plan::reverse_enabled").reverse_wanted; }

void Plan::reverse_exchange(Combine how) { reverse_exchange(std::span<const Combine>(&how, 1)); }

void Plan::reverse_exchange(std::span<const Combine> per_region) {
  PlanState& p = detail::require_state(state_, "Plan::reverse_exchange");
  detail::reverse_start(p, "Plan::reverse_exchange");
  detail::reverse_finish(p, per_region, "Plan::reverse_exchange");
}

void Plan::reverse_start() { detail::reverse_start(detail::require_state(state_, "Plan::reverse_start"), "Plan::reverse_start"); }

void Plan::reverse_finish(Combine how) { reverse_finish(std::span<const Combine>(&how, 1)); }

void Plan::reverse_finish(std::span<const Combine> per_region) {
  detail::reverse_finish(detail::require_state(state_, "Plan::reverse_finish"), per_region, "Plan::reverse_finish");
}

bool Plan::committed() const { return detail::require_state(state_, "Plan::committed").committed; }
World& Plan::world() const { return *detail::require_state(state_, "Plan::world").world; }
const std::vector<int>& Plan::neighbours() const { return detail::require_state(state_, "Plan::neighbours").neighbours; }
std::size_t Plan::channels() const { return detail::require_state(state_, "Plan::channels").user_channels; }
int Plan::id() const { return detail::require_state(state_, "Plan::id").id; }

namespace {

// A slot's path by name, both parts of a split message ("in-place+staged").
template <class Slot>
std::string path_names_of(const std::vector<Slot>& slots, std::int32_t index) {
  std::string names;
  for (; index >= 0; index = slots[static_cast<std::size_t>(index)].next_part) {
    const Slot& slot = slots[static_cast<std::size_t>(index)];
    if (!names.empty()) names += "+";
    names += slot.type->name();
    if (slot.next_part >= 0 && slots[static_cast<std::size_t>(slot.next_part)].part == 0) break;  // the next partition
  }
  return names;
}

}  // namespace

std::string Plan::send_path(std::size_t channel, int neighbour) const {
  PlanState& p = detail::require_state(state_, "Plan::send_path");
  return path_names_of(p.sends, detail::send_index(p, channel, neighbour, "Plan::send_path"));
}

std::string Plan::receive_path(std::size_t channel, int neighbour) const {
  PlanState& p = detail::require_state(state_, "Plan::receive_path");
  return path_names_of(p.receives, detail::receive_index(p, channel, neighbour, "Plan::receive_path"));
}

std::string Plan::describe() const {
  const PlanState& p = detail::require_state(state_, "Plan::describe");
  std::ostringstream text;
  text << "plan " << p.id << " on rank " << p.w->rank << ": " << p.neighbours.size() << " neighbour(s), "
       << p.user_channels << " channel(s)" << (p.committed ? "" : ", not committed") << "\n";
  bool any_between_nodes = false;
  // A message split in two (read in place and staged) has parts 0 and 1 in the same plan channel.
  auto part = [&p](const auto& slot, const auto& slots, bool sending) {
    const bool split = slot.part > 0 || (slot.next_part >= 0 && slots[static_cast<std::size_t>(slot.next_part)].part > 0);
    if (split) return " (part " + std::to_string(slot.part + 1) + " of 2)";
    if (slot.combined < 0) return std::string();
    const std::size_t count = sending ? p.combined_sends[static_cast<std::size_t>(slot.combined)]->partitions
                                      : p.combined_receives[static_cast<std::size_t>(slot.combined)]->taken.size();
    return " (" + std::to_string(count) + " partitions in one message)";
  };
  for (const auto& slot : p.sends) {
    text << "  send    " << p.slot_name(slot.channel, slot.rank) << part(slot, p.sends, true) << ": " << slot.bytes << " bytes, "
         << slot.type->description() << "\n";
    any_between_nodes |= detail::between_nodes(slot);
  }
  for (const auto& slot : p.receives) {
    text << "  receive " << p.slot_name(slot.channel, slot.rank) << part(slot, p.receives, false) << ": " << slot.bytes << " bytes, "
         << slot.type->description() << "\n";
    any_between_nodes |= detail::between_nodes(slot);
  }
  if (any_between_nodes) text << "  inter-node slots travel by " << p.transport_reason << "\n";
  for (const auto& state : p.path_states)
    if (state) state->describe(p, text);
  if (p.committed) {
    const PlanTraffic t = traffic();
    text << "  per exchange from this rank: " << t.inter_node_messages << " message(s), " << t.inter_node_bytes
         << " bytes to other nodes; " << t.node_peer_messages << " message(s), " << t.node_peer_bytes
         << " bytes to node peers\n";
  }
  return text.str();
}

PlanTraffic Plan::traffic() const {
  const detail::PlanState& p = detail::require_state(state_, "Plan::traffic");
  detail::require_committed(p, "Plan::traffic");
  PlanTraffic t;
  std::vector<char> combined_counted(p.combined_sends.size(), 0);
  for (const auto& slot : p.sends) {
    if (slot.type->counts_own_traffic()) continue;  // counted by its path's plan state below
    const bool inter = detail::between_nodes(slot);
    (inter ? t.inter_node_bytes : t.node_peer_bytes) += slot.bytes;
    // A split message's part 1 and a combined message's later partitions ride in one message.
    bool counted = slot.part > 0;
    if (slot.combined >= 0) {
      char& seen = combined_counted[static_cast<std::size_t>(slot.combined)];
      counted = counted || seen;
      seen = 1;
    }
    if (!counted) ++(inter ? t.inter_node_messages : t.node_peer_messages);
  }
  for (const auto& state : p.path_states)
    if (state) state->add_traffic(p, t);
  return t;
}

}  // namespace ghostwire
