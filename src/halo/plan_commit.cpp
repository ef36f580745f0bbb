// Plan::commit: validate, agree with every neighbour on every slot, allocate the plan's segment
// (counters, staging, inter-node receive buffers) and precompile every copy.
//
// Every rank sends each neighbour one descriptor holding both directions of every channel, so both
// ranks of a slot check both directions and a mismatch is reported on both of them. All checks end
// in a collective verdict, so ranks throw together and nobody hangs.
#include <algorithm>
#include <array>
#include <sstream>

#include "collective.hpp"
#include "ghostwire/error.hpp"
#include "path_choice.hpp"
#include "plan_state.hpp"
#include "runtime/mpi_check.hpp"
#include "runtime/segment_state.hpp"
#include "runtime/world_state.hpp"
#include "wire.hpp"

namespace ghostwire::detail {
namespace {

constexpr std::size_t line = 64;  // counters and buffers start on their own cache lines

struct Signature {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> parts;  // (element size, count)
  std::uint64_t bytes() const {
    std::uint64_t total = 0;
    for (auto [size, count] : parts) total += size * count;
    return total;
  }
  std::string describe() const {
    if (parts.empty()) return "nothing";
    std::ostringstream text;
    for (std::size_t i = 0; i < parts.size(); ++i)
      text << (i ? " + " : "") << parts[i].second << " elements of " << parts[i].first << " bytes";
    text << " (" << bytes() << " bytes)";
    return text.str();
  }
  bool operator==(const Signature&) const = default;
};

Signature signature_of(const PlanState& p, const std::vector<PieceSpec>& pieces) {
  Signature s;
  for (const PieceSpec& piece : pieces) {
    std::uint64_t size = p.regions[static_cast<std::size_t>(piece.region)].element_size;
    if (piece.layout.count() == 0) continue;
    if (!s.parts.empty() && s.parts.back().first == size)
      s.parts.back().second += piece.layout.count();
    else
      s.parts.emplace_back(size, piece.layout.count());
  }
  return s;
}

void write_signature(WireWriter& out, const Signature& s) {
  out.u64(s.parts.size());
  for (auto [size, count] : s.parts) {
    out.u64(size);
    out.u64(count);
  }
}

Signature read_signature(WireReader& in) {
  Signature s;
  s.parts.resize(in.u64());
  for (auto& [size, count] : s.parts) {
    size = in.u64();
    count = in.u64();
  }
  return s;
}

std::vector<Piece> pieces_of(const PlanState& p, const std::vector<PieceSpec>& specs) {
  std::vector<Piece> pieces;
  for (const PieceSpec& spec : specs) {
    const RegionSpec& region = p.regions[static_cast<std::size_t>(spec.region)];
    pieces.push_back({region.base, region.element_size, &spec.layout});
  }
  return pieces;
}

std::size_t message_bytes(const PlanState& p, const std::vector<PieceSpec>& specs) {
  return static_cast<std::size_t>(signature_of(p, specs).bytes());
}

std::vector<std::string> validate_pieces(const PlanState& p) {
  std::vector<std::string> problems;
  auto check = [&](const std::vector<PieceSpec>& pieces, std::size_t slot, const char* direction) {
    for (const PieceSpec& piece : pieces) {
      const RegionSpec& region = p.regions[static_cast<std::size_t>(piece.region)];
      std::size_t elements = region.bytes / region.element_size;
      if (piece.layout.count() > 0 && piece.layout.end() > elements)
        problems.push_back(std::string(direction) + " layout of " +
                           p.slot_name(slot % p.channels, p.neighbours[slot / p.channels]) + " (" +
                           piece.layout.describe() + ") reaches element " + std::to_string(piece.layout.end() - 1) +
                           " of a region of " + std::to_string(elements) + " elements");
    }
  };
  for (std::size_t s = 0; s < p.send_pieces.size(); ++s) {
    check(p.send_pieces[s], s, "send");
    check(p.receive_pieces[s], s, "receive");
  }
  return problems;
}

std::vector<std::string> check_symmetry(PlanState& p, MPI_Comm comm) {
  WorldState& w = *p.w;
  std::vector<int> listed(static_cast<std::size_t>(w.size), 0), listed_by(static_cast<std::size_t>(w.size), 0);
  for (int r : p.neighbours) listed[static_cast<std::size_t>(r)] = 1;
  MPI_Request request;
  check_mpi(MPI_Ialltoall(listed.data(), 1, MPI_INT, listed_by.data(), 1, MPI_INT, comm, &request), "MPI_Ialltoall");
  wait_request(w, request, "Plan::commit: the neighbour lists of all ranks (did every rank call commit?)");
  std::vector<std::string> problems;
  std::string me = "rank " + std::to_string(w.rank);
  for (int r = 0; r < w.size; ++r) {
    std::string other = "rank " + std::to_string(r);
    if (listed[static_cast<std::size_t>(r)] && !listed_by[static_cast<std::size_t>(r)])
      problems.push_back(me + " lists " + other + " as a neighbour but " + other + " does not list " + me);
    if (!listed[static_cast<std::size_t>(r)] && listed_by[static_cast<std::size_t>(r)])
      problems.push_back(other + " lists " + me + " as a neighbour but " + me + " does not list " + other);
  }
  return problems;
}

// Offsets within this rank's part of the plan segment.
struct SegmentPlan {
  std::size_t posted = 0, acked = 0, bytes = 0;
  std::vector<std::array<std::size_t, 2>> staging;    // by slot (send side): two buffers
  std::vector<std::array<std::size_t, 2>> buffers;    // by slot (receive side)
};

SegmentPlan lay_out_segment(const PlanState& p) {
  std::size_t slots = p.send_pieces.size();
  SegmentPlan plan;
  plan.staging.assign(slots, {0, 0});
  plan.buffers.assign(slots, {0, 0});
  plan.posted = 0;
  plan.acked = round_up(slots * sizeof(std::uint64_t), line);
  std::size_t offset = plan.acked + round_up(slots * sizeof(std::uint32_t), line);
  for (std::size_t s = 0; s < slots; ++s) {
    // Pushed slots stage a message when the receiver is not ready for it (push_path.cpp), so a slot
    // that may be pushed gets staging too (whether it is, the receiver's side decides, and its
    // answer comes with the descriptors swapped after this segment is made).
    if (!p.send_pieces[s].empty() && (send_path(p, s) == SlotPath::staged || push_wanted(p, s))) {
      std::size_t bytes = round_up(message_bytes(p, p.send_pieces[s]), line);
      plan.staging[s] = {offset, offset + bytes};
      offset += 2 * bytes;
    }
    if (!p.receive_pieces[s].empty() && p.inter_path == SlotPath::inter &&
        !p.world->shares_memory_with(p.neighbours[s / p.channels])) {
      std::size_t bytes = round_up(message_bytes(p, p.receive_pieces[s]), line);
      plan.buffers[s] = {offset, offset + bytes};
      offset += 2 * bytes;
    }
  }
  plan.bytes = offset;
  return plan;
}

// Where each piece of a slot's layout lives, so that a node peer can map it: segment, offset,
// element size and layout per piece.
void write_pieces(WireWriter& out, const PlanState& p, const std::vector<PieceSpec>& pieces) {
  out.u64(pieces.size());
  for (const PieceSpec& piece : pieces) {
    const RegionSpec& region = p.regions[static_cast<std::size_t>(piece.region)];
    out.u64(static_cast<std::uint64_t>(region.segment));
    out.u64(region.offset_bytes);
    out.u64(region.element_size);
    out.layout(piece.layout);
  }
}

// The pieces write_pieces described, mapped into this process: `layouts` holds the layouts the
// pieces point to (reserved first, so the pointers stay valid).
std::vector<Piece> read_pieces(WireReader& in, WorldState& w, int rank, std::vector<Layout>& layouts) {
  std::size_t count = in.u64();
  layouts.clear();
  layouts.reserve(count);
  std::vector<std::size_t> segment_ids, offsets, sizes;
  for (std::size_t k = 0; k < count; ++k) {
    segment_ids.push_back(in.u64());
    offsets.push_back(in.u64());
    sizes.push_back(in.u64());
    layouts.push_back(in.layout());
  }
  std::vector<Piece> pieces;
  for (std::size_t k = 0; k < count; ++k) {
    SegmentState& segment = w.segment(static_cast<int>(segment_ids[k]), rank);
    std::byte* base = segment.peer_base[static_cast<std::size_t>(rank)];
    pieces.push_back({base + segment.data_offset + offsets[k], sizes[k], &layouts[k]});
  }
  return pieces;
}

std::vector<std::byte> describe_for(const PlanState& p, const SegmentPlan& layout, std::size_t n) {
  WireWriter out;
  out.u64(p.channels);
  out.u64(p.neighbours.size());
  out.u64(n);  // the receiver's index in my neighbour list
  out.u64(layout.posted);  // where my counters are: they depend on my own slot count
  out.u64(layout.acked);
  out.u64(p.acknowledge_by_reply ? 1 : 0);
  for (std::size_t c = 0; c < p.channels; ++c) {
    std::size_t s = n * p.channels + c;
    const auto& send = p.send_pieces[s];
    out.u64(send.empty() ? 0 : 1);
    write_signature(out, signature_of(p, send));
    if (!send.empty()) {
      SlotPath path = send_path(p, s);
      out.u64(static_cast<std::uint64_t>(path));
      const bool wanted = push_wanted(p, s);
      out.u64(wanted ? 1 : 0);
      if (path == SlotPath::intra) write_pieces(out, p, send);
      if (path == SlotPath::staged || wanted) {
        out.u64(layout.staging[s][0]);
        out.u64(layout.staging[s][1]);
      }
    }
    out.u64(p.receive_pieces[s].empty() ? 0 : 1);
    write_signature(out, signature_of(p, p.receive_pieces[s]));
    out.u64(layout.buffers[s][0]);
    out.u64(layout.buffers[s][1]);
    // Whether the sender may push into my ghost cells, and where they are if so.
    const bool accepted = push_accepted(p, s);
    out.u64(accepted ? 1 : 0);
    if (accepted) write_pieces(out, p, p.receive_pieces[s]);
  }
  return std::move(out.bytes());
}

std::uint64_t* posted_counter(std::byte* part, std::size_t offset, std::size_t slot) {
  return reinterpret_cast<std::uint64_t*>(part + offset) + slot;
}
std::uint32_t* acknowledgement_counter(std::byte* part, std::size_t offset, std::size_t slot) {
  return reinterpret_cast<std::uint32_t*>(part + offset) + slot;
}

// The address of a message that is one contiguous run of memory, else null: it can be read in
// place (Plan::view).
const std::byte* single_run(std::span<const Piece> pieces) {
  if (pieces.size() != 1) return nullptr;
  const Piece& piece = pieces[0];
  std::size_t first = 0, end = 0;
  bool contiguous = true, any = false;
  piece.layout->for_each_run([&](std::size_t start, std::size_t count) {
    if (any && start != end) contiguous = false;
    if (!any) first = start;
    any = true;
    end = start + count;
  });
  return any && contiguous ? piece.base + first * piece.element_size : nullptr;
}

// A message received in place: `bytes` at `run`, then the trailer at `trailer` (absolute
// addresses, for a receive at MPI_BOTTOM).
MPI_Datatype in_place_datatype(const std::byte* run, std::size_t bytes, std::byte* trailer) {
  int lengths[2] = {static_cast<int>(bytes), static_cast<int>(sizeof(MessageTrailer))};
  MPI_Aint displacements[2];
  check_mpi(MPI_Get_address(run, &displacements[0]), "MPI_Get_address");
  check_mpi(MPI_Get_address(trailer, &displacements[1]), "MPI_Get_address");
  MPI_Datatype type;
  check_mpi(MPI_Type_create_hindexed(2, lengths, displacements, MPI_BYTE, &type), "MPI_Type_create_hindexed");
  check_mpi(MPI_Type_commit(&type), "MPI_Type_commit");
  return type;
}

}  // namespace

void commit_plan(PlanState& p) {
  WorldState& w = *p.w;
  const std::string context = "Plan::commit (plan " + std::to_string(p.id) + ")";
  check_mpi(MPI_Comm_dup(w.comm, &p.comm), "MPI_Comm_dup");  // kept: the messages path uses it
  MPI_Comm comm = p.comm;

  throw_if_any(w, comm, validate_pieces(p), Errc::out_of_range, context);
  throw_if_any(w, comm, check_symmetry(p, comm), Errc::mismatch, context);

  const std::size_t channels = p.channels, slots = p.send_pieces.size();
  long notifications = static_cast<long>(3 * slots);
  MPI_Request request;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, &notifications, 1, MPI_LONG, MPI_MAX, comm, &request), "MPI_Iallreduce");
  wait_request(w, request, context + ": notification counts of all ranks");
  // Two-sided transport: inter-node slots are messages, tagged by slot; the same choice everywhere.
  p.inter_path = SlotPath::inter;
  if (w.settings.transport == Transport::p2p) {
    int* tag_ub = nullptr;
    int found = 0;
    MPI_Comm_get_attr(comm, MPI_TAG_UB, &tag_ub, &found);
    long max_tag = notifications / 3 * message_tags_per_slot;
    if (found && tag_ub && max_tag <= *tag_ub) p.inter_path = SlotPath::messages;
  }
  SegmentPlan layout = lay_out_segment(p);
  p.segment = std::make_unique<Segment>(*p.world, layout.bytes, static_cast<std::size_t>(notifications));
  std::byte* mine = p.segment->data();

  std::size_t pack_bytes = 0;
  for (std::size_t s = 0; s < slots; ++s)
    if (!p.send_pieces[s].empty() && send_path(p, s) == SlotPath::inter)
      pack_bytes = std::max(pack_bytes, message_bytes(p, p.send_pieces[s]));
  p.pack_buffer.assign(pack_bytes, std::byte{0});

  // Buffers of the messages path: two halves per slot, each with its trailer, plus a word for the
  // acknowledgement; allocated once here so the persistent requests can point into them.
  std::vector<std::size_t> message_offset(2 * slots, 0);
  std::size_t message_bytes_total = 0, message_slots = 0, receive_message_slots = 0;
  auto half = [](std::size_t bytes) { return round_up(bytes + sizeof(MessageTrailer), line); };
  for (std::size_t s = 0; s < slots; ++s) {
    if (p.world->shares_memory_with(p.neighbours[s / channels]) || p.inter_path != SlotPath::messages) continue;
    if (!p.send_pieces[s].empty()) {
      message_offset[2 * s] = message_bytes_total;
      message_bytes_total += 2 * half(message_bytes(p, p.send_pieces[s])) + line;
      ++message_slots;
    }
    if (!p.receive_pieces[s].empty()) {
      message_offset[2 * s + 1] = message_bytes_total;
      message_bytes_total += 2 * half(message_bytes(p, p.receive_pieces[s])) + line;
      ++message_slots;
      ++receive_message_slots;
    }
  }
  p.message_memory.assign(message_bytes_total, std::byte{0});
  // Three persistent requests per message slot; an MPI has a finite request table (MPICH 4.0:
  // 262,144 per process), so plans with very many slots post each message on demand instead.
  // (Receive slots take two more for receiving in place.)
  const std::size_t requests = 3 * message_slots + 2 * receive_message_slots;
  p.persistent_requests = message_slots != 0 && reserve_persistent_requests(requests);
  if (p.persistent_requests) p.reserved_requests = requests;

  std::vector<std::vector<std::byte>> outgoing;
  for (std::size_t n = 0; n < p.neighbours.size(); ++n) outgoing.push_back(describe_for(p, layout, n));
  auto incoming = swap_with_peers(w, comm, p.neighbours, outgoing, context + ": the slot descriptors");

  std::vector<std::string> problems;
  p.send_slot_of.assign(slots, -1);
  p.receive_slot_of.assign(slots, -1);
  for (std::size_t n = 0; n < p.neighbours.size(); ++n) {
    const int r = p.neighbours[n];
    const std::string me = "rank " + std::to_string(w.rank), peer = "rank " + std::to_string(r);
    WireReader in(incoming[n]);
    std::size_t peer_channels = in.u64(), peer_neighbours = in.u64(), my_index = in.u64();
    std::size_t peer_posted = in.u64(), peer_acked = in.u64();
    const bool peer_by_reply = in.u64() != 0;
    if (peer_by_reply != p.acknowledge_by_reply)
      problems.push_back((p.acknowledge_by_reply ? me : peer) + " acknowledges by reply (Plan::acknowledge_by_reply) but " +
                         (p.acknowledge_by_reply ? peer : me) + " does not; both sides must agree");
    if (peer_channels != channels) {
      problems.push_back(me + " has " + std::to_string(channels) + " channels but its neighbour " + peer + " has " +
                         std::to_string(peer_channels));
      continue;
    }
    std::byte* peer_part = p.segment->peer_data(r);  // null off-node
    for (std::size_t c = 0; c < channels; ++c) {
      const std::size_t s = n * channels + c;
      const std::size_t peer_slot = my_index * channels + c;  // this slot as the peer numbers it
      // What the peer sends me.
      const bool peer_has_send = in.u64() != 0;
      Signature peer_sends = read_signature(in);
      std::vector<Layout> peer_layouts, peer_ghost_layouts;
      std::vector<Piece> peer_pieces, peer_ghosts;
      std::size_t peer_staging[2] = {0, 0};
      SlotPath peer_path = SlotPath::inter;
      bool peer_wants_push = false;
      if (peer_has_send) {
        peer_path = static_cast<SlotPath>(in.u64());
        peer_wants_push = in.u64() != 0;
        if (peer_path == SlotPath::intra) peer_pieces = read_pieces(in, w, r, peer_layouts);
        if (peer_path == SlotPath::staged || peer_wants_push) {
          peer_staging[0] = in.u64();
          peer_staging[1] = in.u64();
        }
      }
      const bool peer_has_receive = in.u64() != 0;
      Signature peer_receives = read_signature(in);
      std::size_t peer_buffer[2] = {in.u64(), in.u64()};
      const bool peer_accepts_push = in.u64() != 0;
      if (peer_accepts_push) peer_ghosts = read_pieces(in, w, r, peer_ghost_layouts);

      Signature my_receives = signature_of(p, p.receive_pieces[s]), my_sends = signature_of(p, p.send_pieces[s]);
      const bool i_receive = !p.receive_pieces[s].empty(), i_send = !p.send_pieces[s].empty();
      if (peer_has_send != i_receive)
        problems.push_back("channel " + std::to_string(c) + " from " + peer + " to " + me + ": " +
                           (peer_has_send ? peer + " sends but " + me + " has no receive layout"
                                          : me + " receives but " + peer + " has no send layout"));
      if (i_send != peer_has_receive)
        problems.push_back("channel " + std::to_string(c) + " from " + me + " to " + peer + ": " +
                           (i_send ? me + " sends but " + peer + " has no receive layout"
                                   : peer + " receives but " + me + " has no send layout"));
      if (peer_has_send != i_receive || i_send != peer_has_receive) continue;
      if (peer_sends != my_receives)
        problems.push_back("channel " + std::to_string(c) + " from " + peer + " to " + me + ": " + peer + " sends " +
                           peer_sends.describe() + " but " + me + " receives " + my_receives.describe());
      if (my_sends != peer_receives)
        problems.push_back("channel " + std::to_string(c) + " from " + me + " to " + peer + ": " + me + " sends " +
                           my_sends.describe() + " but " + peer + " receives " + peer_receives.describe());
      if (peer_sends != my_receives || my_sends != peer_receives) continue;

      if (i_receive) {
        ReceiveSlot slot;
        slot.channel = c;
        slot.rank = r;
        slot.path = agreed_path(peer_path, peer_wants_push, push_accepted(p, s));
        slot.bytes = static_cast<std::size_t>(my_receives.bytes());
        std::vector<Piece> mine_pieces = pieces_of(p, p.receive_pieces[s]);
        if (slot.path == SlotPath::messages) {
          std::byte* base = p.message_memory.data() + message_offset[2 * s + 1];
          std::size_t size = half(slot.bytes);
          Layout whole = Layout::contiguous(0, slot.bytes);
          slot.buffer[0] = base;
          slot.buffer[1] = base + size;
          for (int parity = 0; parity < 2; ++parity) {
            Piece buffer{slot.buffer[parity], 1, &whole};
            slot.unpack[parity] = CopyProgram::build({&buffer, 1}, mine_pieces);
            if (!p.persistent_requests) continue;
            const int tag = static_cast<int>(message_tags_per_slot * s) + parity;
            check_mpi(MPI_Recv_init(slot.buffer[parity], static_cast<int>(slot.bytes + sizeof(MessageTrailer)), MPI_BYTE,
                                    r, tag, comm, &slot.receive_request[parity]),
                      "MPI_Recv_init");
            check_mpi(MPI_Start(&slot.receive_request[parity]), "MPI_Start");
            slot.buffer_posted[parity] = true;
          }
          slot.tag = static_cast<int>(message_tags_per_slot * s);
          slot.ack_word = reinterpret_cast<std::uint32_t*>(base + 2 * size);
          if (p.persistent_requests)
            check_mpi(MPI_Send_init(slot.ack_word, 1, MPI_UINT32_T, r, slot.tag + 2, comm, &slot.ack_request),
                      "MPI_Send_init");
          if (const std::byte* run = single_run(mine_pieces); run && p.persistent_requests) {
            // The trailer's own word shares the acknowledgement's line (a line per slot is kept for it).
            slot.in_place_trailer = base + 2 * size + sizeof(MessageTrailer);
            slot.in_place_type = in_place_datatype(run, slot.bytes, slot.in_place_trailer);
            for (int parity = 0; parity < 2; ++parity)
              check_mpi(MPI_Recv_init(MPI_BOTTOM, 1, slot.in_place_type, r, slot.tag + parity, comm,
                                      &slot.in_place_request[parity]),
                        "MPI_Recv_init");
          }
        } else if (slot.path == SlotPath::inter) {
          for (int parity = 0; parity < 2; ++parity) {
            Layout whole = Layout::contiguous(0, slot.bytes);
            Piece buffer{mine + layout.buffers[s][static_cast<std::size_t>(parity)], 1, &whole};
            slot.unpack[parity] = CopyProgram::build({&buffer, 1}, mine_pieces);
            slot.data_id[parity] = static_cast<NotificationId>(2 * s + static_cast<std::size_t>(parity));
          }
          slot.remote_ack_id = static_cast<NotificationId>(2 * peer_neighbours * channels + peer_slot);
        } else {
          if (slot.path == SlotPath::staged || slot.path == SlotPath::pushed) {
            Layout whole = Layout::contiguous(0, slot.bytes);
            for (int parity = 0; parity < 2; ++parity) {
              Piece staging{peer_part + peer_staging[parity], 1, &whole};
              slot.unpack[parity] = CopyProgram::build({&staging, 1}, mine_pieces);
              slot.staging[parity] = staging.base;
            }
            // Pushed: the sender writes my ghost cells, or stages when I am not ready (then I copy
            // as on the staged path); no view either way (a pushed message is in my own memory).
            if (slot.path == SlotPath::staged) slot.view = slot.staging[1];  // where message 1 will be
          } else if (slot.path == SlotPath::intra) {
            slot.copy = CopyProgram::build(peer_pieces, mine_pieces);
            slot.view = single_run(peer_pieces);
          }
          slot.local_posted = posted_counter(mine, layout.posted, s);
          slot.remote_acked = acknowledgement_counter(peer_part, peer_acked, peer_slot);
        }
        p.receive_slot_of[s] = static_cast<std::int32_t>(p.receives.size());
        p.receives.push_back(std::move(slot));
      }
      if (i_send) {
        SendSlot slot;
        slot.channel = c;
        slot.rank = r;
        slot.path = agreed_path(send_path(p, s), push_wanted(p, s), peer_accepts_push);
        slot.bytes = static_cast<std::size_t>(my_sends.bytes());
        std::vector<Piece> mine_pieces = pieces_of(p, p.send_pieces[s]);
        Layout whole = Layout::contiguous(0, slot.bytes);
        if (slot.path == SlotPath::messages) {
          std::byte* base = p.message_memory.data() + message_offset[2 * s];
          std::size_t size = half(slot.bytes);
          for (int parity = 0; parity < 2; ++parity) {
            slot.buffer[parity] = base + static_cast<std::size_t>(parity) * size;
            Piece buffer{slot.buffer[parity], 1, &whole};
            slot.pack_into[parity] = CopyProgram::build(mine_pieces, {&buffer, 1});
            if (!p.persistent_requests) continue;
            check_mpi(MPI_Send_init(slot.buffer[parity], static_cast<int>(slot.bytes + sizeof(MessageTrailer)), MPI_BYTE,
                                    r, static_cast<int>(message_tags_per_slot * peer_slot) + parity, comm,
                                    &slot.send_request[parity]),
                      "MPI_Send_init");
          }
          slot.tag = static_cast<int>(message_tags_per_slot * peer_slot);
          slot.ack_word = reinterpret_cast<std::uint32_t*>(base + 2 * size);
          if (p.persistent_requests)
            check_mpi(MPI_Recv_init(slot.ack_word, 1, MPI_UINT32_T, r, slot.tag + 2, comm, &slot.ack_request),
                      "MPI_Recv_init");
        } else if (slot.path == SlotPath::inter) {
          Piece buffer{p.pack_buffer.data(), 1, &whole};
          slot.pack = CopyProgram::build(mine_pieces, {&buffer, 1});
          for (int parity = 0; parity < 2; ++parity) {
            slot.remote_offset[parity] = peer_buffer[parity];
            slot.remote_data_id[parity] = static_cast<NotificationId>(2 * peer_slot + static_cast<std::size_t>(parity));
          }
          slot.ack_id = static_cast<NotificationId>(2 * slots + s);
        } else {
          if (slot.path == SlotPath::pushed) slot.push = CopyProgram::build(mine_pieces, peer_ghosts);
          if (slot.path == SlotPath::staged || slot.path == SlotPath::pushed) {
            for (int parity = 0; parity < 2; ++parity) {
              Piece staging{mine + layout.staging[s][static_cast<std::size_t>(parity)], 1, &whole};
              // Streaming stores bypass my cache: right for a peer's core, wrong when I read it back.
              slot.pack_into[parity] = CopyProgram::build(mine_pieces, {&staging, 1}, r != w.rank);
            }
          }
          slot.remote_posted = posted_counter(peer_part, peer_posted, peer_slot);
          slot.local_acked = acknowledgement_counter(mine, layout.acked, s);
        }
        p.send_slot_of[s] = static_cast<std::int32_t>(p.sends.size());
        p.sends.push_back(std::move(slot));
      }
    }
  }
  throw_if_any(w, comm, problems, Errc::mismatch, context);

  // Both directions of a slot: with acknowledge_by_reply, a send carries the acknowledgement of
  // what its reverse receive consumed.
  for (std::size_t s = 0; s < slots; ++s) {
    if (p.send_slot_of[s] < 0 || p.receive_slot_of[s] < 0) continue;
    p.sends[static_cast<std::size_t>(p.send_slot_of[s])].reverse_receive = p.receive_slot_of[s];
    p.receives[static_cast<std::size_t>(p.receive_slot_of[s])].reverse_send = p.send_slot_of[s];
  }
  // Slot lists in the order start() and finish() take them: the slots `goes_last` picks after the
  // others, each part in slot order.
  auto order = [channels](const auto& list, auto goes_last, std::vector<std::int32_t>& all,
                          std::vector<std::vector<std::int32_t>>& of_channel) {
    all.clear();
    of_channel.assign(channels, {});
    for (int pass = 0; pass < 2; ++pass)
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (goes_last(list[i]) != (pass == 1)) continue;
        all.push_back(static_cast<std::int32_t>(i));
        of_channel[list[i].channel].push_back(static_cast<std::int32_t>(i));
      }
  };
  // Node peers first: their send is a counter store, so they can start copying while this rank
  // packs for other nodes.
  order(p.sends, [](const SendSlot& slot) { return slot.path == SlotPath::inter || slot.path == SlotPath::messages; },
        p.all_sends, p.sends_of_channel);
  // Other ranks' messages before this rank's messages to itself: a peer's next exchange waits for
  // the acknowledgement of what it sent, a copy within this rank delays nobody else.
  order(p.receives, [&](const ReceiveSlot& slot) { return slot.rank == w.rank; }, p.all_receives,
        p.receives_of_channel);
  p.pending.reserve(p.receives.size());
  p.needs_world_progress = false;
  for (const ReceiveSlot& slot : p.receives) p.needs_world_progress |= slot.path == SlotPath::inter;
  for (const SendSlot& slot : p.sends) p.needs_world_progress |= slot.path == SlotPath::inter;
  p.needs_world_progress &= w.needs_progress;
  bool only_node_peers = true;
  auto node_peer = [](SlotPath path) {
    return path == SlotPath::intra || path == SlotPath::staged || path == SlotPath::pushed;
  };
  for (const ReceiveSlot& slot : p.receives) only_node_peers &= node_peer(slot.path);
  for (const SendSlot& slot : p.sends) only_node_peers &= node_peer(slot.path);
  p.spin_polls = only_node_peers ? w.peer_spin_polls : w.spin_polls;
  p.committed = true;
  owe_pushes_to_world(p);
  // Peers must not post into counters this rank has not finished setting up.
  MPI_Request barrier;
  check_mpi(MPI_Ibarrier(comm, &barrier), "MPI_Ibarrier");
  wait_request(w, barrier, context + ": the final barrier");
}

}  // namespace ghostwire::detail
