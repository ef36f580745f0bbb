// SPDX-License-Identifier: BSD-3-Clause
// Segment: creation, destruction and plain put/get. Invariants: segments are created and destroyed
// in the same order on every rank (the id is checked collectively first, so a mismatch throws
// everywhere instead of hanging); nobody writes into a part before its owner has cleared it (the
// constructor ends with a barrier). docs/runtime.md, "Segments".
#include "ghostwire/segment.hpp"

#include <cstring>
#include <string>

#include "ghostwire/error.hpp"
#include "mpi_check.hpp"
#include "segment_state.hpp"
#include "shared_window.hpp"
#include "transport.hpp"
#include "wait.hpp"

namespace ghostwire {
namespace {

using detail::check_mpi;

// A collective check: every rank learns whether the value agrees everywhere, so all ranks throw
// together instead of some hanging in the next collective. It is the constructor's first
// collective and waits like every ghostwire wait: a rank that never creates the segment (it died,
// or took another branch) ends the others with a diagnostic instead of a hang in MPI.
void require_same_everywhere(detail::WorldState& w, long value, const char* what) {
  long bounds[2] = {value, -value};
  MPI_Request request;
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, bounds, 2, MPI_LONG, MPI_MAX, w.comm, &request), "MPI_Iallreduce");
  detail::wait_request(w, request, [&] {
    return std::string("Segment: every rank to create segment ") + std::to_string(w.segments.size()) + " (checking " +
           what + "; did every rank call it?)";
  });
  if (bounds[0] != -bounds[1])
    raise(Errc::mismatch, std::string("Segment: ") + what + " differs between ranks (from " +
                              std::to_string(-bounds[1]) + " to " + std::to_string(bounds[0]) +
                              "); it must be the same on every rank");
}

}  // namespace

Segment::Segment(World& world, std::size_t bytes, std::size_t notification_count)
    : state_(std::make_unique<detail::SegmentState>()) {
  using namespace detail;
  require_mpi_running("Segment");
  SegmentState& s = *state_;
  WorldState& w = world_state(world);
  s.world = &world;
  s.w = &w;
  s.id = static_cast<int>(w.segments.size());
  require_same_everywhere(w, s.id, "the segment id (segments must be created in the same order)");
  require_same_everywhere(w, static_cast<long>(notification_count), "notification_count");
  if (notification_count > (std::size_t{1} << 26))
    raise(Errc::invalid_argument, "Segment: notification_count " + std::to_string(notification_count) +
                                      " is larger than the limit of 67108864");

  s.notification_count = notification_count;
  s.data_offset = round_up(notification_count * sizeof(std::uint32_t), page_bytes);
  std::size_t part_bytes = s.data_offset + round_up(bytes, page_bytes);

  // Every part starts on a page of its own (noncontiguous), so its owner's first touch places it.
  NodeSharedWindow shared = allocate_node_shared(w.node_comm, part_bytes, page_bytes, true);
  s.shared_window = shared.window;
  s.base = shared.parts[static_cast<std::size_t>(w.node_rank)];
  // The owner touches its part first (NUMA placement) and clears stale notifications.
  std::memset(s.base, 0, part_bytes);

  std::uint64_t mine = bytes;
  std::vector<std::uint64_t> all(static_cast<std::size_t>(w.size));
  check_mpi(MPI_Allgather(&mine, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, w.comm), "MPI_Allgather");
  s.sizes.assign(all.begin(), all.end());

  s.peer_base.assign(static_cast<std::size_t>(w.size), nullptr);
  for (int local = 0; local < w.node_size; ++local)
    s.peer_base[static_cast<std::size_t>(w.node_ranks[static_cast<std::size_t>(local)])] =
        shared.parts[static_cast<std::size_t>(local)];

  // Without windows between nodes (World's probe) the segment still serves notified writes, which
  // travel as messages; only one-sided access to other nodes is refused (require_world_window).
  if (w.node_count > 1 && w.no_windows_between_nodes.empty()) {
    check_mpi(MPI_Win_create(s.base, static_cast<MPI_Aint>(part_bytes), 1, MPI_INFO_NULL, w.comm, &s.world_window),
              "MPI_Win_create");
    check_mpi(MPI_Win_lock_all(MPI_MODE_NOCHECK, s.world_window), "MPI_Win_lock_all");
  }
  w.segments.push_back(&s);
  fast_.peer_base = s.peer_base.data();
  fast_.sizes = s.sizes.data();
  fast_.data_offset = s.data_offset;
  fast_.notification_count = static_cast<std::uint32_t>(notification_count);
  fast_.ranks = static_cast<std::uint32_t>(w.size);
  fast_.my_rank = w.rank;
  // Nobody may write into a part before its owner has cleared it.
  check_mpi(MPI_Barrier(w.comm), "MPI_Barrier");
}

Segment::~Segment() {
  using namespace detail;
  SegmentState& s = *state_;
  WorldState& w = *s.w;
  if (mpi_finalized()) return;  // the user finalised MPI first: the windows went with it
  if (w.broken) {  // a peer may be gone: freeing the windows would wait for it (WorldState::broken)
    w.segments[static_cast<std::size_t>(s.id)] = nullptr;
    return;
  }
  try {
    if (w.transport) w.transport->quiesce();
  } catch (const std::exception&) {
    // A destructor must not throw; the timeout diagnostic has already been printed.
  }
  // Unchecked: a destructor must not throw.
  if (s.world_window != MPI_WIN_NULL) {
    MPI_Win_unlock_all(s.world_window);
    MPI_Win_free(&s.world_window);
  }
  MPI_Win_free(&s.shared_window);
  w.segments[static_cast<std::size_t>(s.id)] = nullptr;
}

World& Segment::world() const noexcept { return *state_->world; }
int Segment::id() const noexcept { return state_->id; }
std::byte* Segment::data() noexcept { return state_->data(); }
const std::byte* Segment::data() const noexcept { return state_->data(); }
std::size_t Segment::size() const noexcept { return state_->sizes[static_cast<std::size_t>(state_->w->rank)]; }
std::size_t Segment::notification_count() const noexcept { return state_->notification_count; }

static void check_target(const detail::SegmentState& s, int rank, const char* call) {
  if (rank < 0 || rank >= s.w->size)
    raise(Errc::out_of_range, std::string(call) + ": rank " + std::to_string(rank) + " is not in [0, " +
                                  std::to_string(s.w->size) + ")");
}

std::size_t Segment::size_of(int rank) const {
  check_target(*state_, rank, "Segment::size_of");
  return state_->sizes[static_cast<std::size_t>(rank)];
}

std::byte* Segment::peer_data(int rank) const {
  check_target(*state_, rank, "Segment::peer_data");
  std::byte* base = state_->peer_base[static_cast<std::size_t>(rank)];
  return base ? base + state_->data_offset : nullptr;
}

namespace detail {

void check_range(const SegmentState& s, int rank, std::size_t offset, std::size_t bytes, const char* call) {
  check_target(s, rank, call);
  std::size_t size = s.sizes[static_cast<std::size_t>(rank)];
  if (offset > size || bytes > size - offset)
    raise(Errc::out_of_range, std::string(call) + ": bytes [" + std::to_string(offset) + ", " +
                                  std::to_string(offset + bytes) + ") are outside rank " + std::to_string(rank) +
                                  "'s part of segment " + std::to_string(s.id) + " (" + std::to_string(size) +
                                  " bytes)");
}

void require_world_window(const SegmentState& s, int rank, const char* call) {
  if (s.world_window != MPI_WIN_NULL) return;
  if (s.w->no_windows_between_nodes.empty())
    raise(Errc::internal, std::string(call) + ": rank " + std::to_string(rank) + " is on another node but segment " +
                              std::to_string(s.id) + " has no world window");
  raise(Errc::unsupported, std::string(call) + ": rank " + std::to_string(rank) +
                               " is on another node, and one-sided access to it needs a window between nodes, but " +
                               s.w->no_windows_between_nodes);
}

// One-sided transfer through the world window in pieces MPI's int counts can describe.
template <class Transfer>
void rma_in_chunks(const SegmentState& s, int rank, std::size_t offset, std::size_t bytes, Transfer&& transfer,
                   const char* call) {
  require_world_window(s, rank, call);
  for_each_mpi_chunk(bytes, [&](std::size_t done, int piece) {
    transfer(done, static_cast<MPI_Aint>(s.data_offset + offset + done), piece);
  });
  check_mpi(MPI_Win_flush(rank, s.world_window), "MPI_Win_flush");
}

}  // namespace detail

void Segment::put(int target, std::size_t offset, const void* source, std::size_t bytes) {
  using namespace detail;
  const SegmentState& s = *state_;
  check_range(s, target, offset, bytes, "Segment::put");
  if (bytes == 0) return;
  if (source == nullptr)
    raise(Errc::invalid_argument, "Segment::put: source is null but bytes is " + std::to_string(bytes));
  if (std::byte* peer = s.peer_base[static_cast<std::size_t>(target)]) {
    std::memcpy(peer + s.data_offset + offset, source, bytes);
    std::atomic_thread_fence(std::memory_order_release);
    return;
  }
  rma_in_chunks(s, target, offset, bytes, [&](std::size_t done, MPI_Aint displacement, int count) {
    check_mpi(MPI_Put(static_cast<const std::byte*>(source) + done, count, MPI_BYTE, target, displacement, count,
                      MPI_BYTE, s.world_window),
              "MPI_Put");
  }, "Segment::put");
}

void Segment::get(int target, std::size_t offset, void* destination, std::size_t bytes) const {
  using namespace detail;
  const SegmentState& s = *state_;
  check_range(s, target, offset, bytes, "Segment::get");
  if (bytes == 0) return;
  if (destination == nullptr)
    raise(Errc::invalid_argument, "Segment::get: destination is null but bytes is " + std::to_string(bytes));
  if (std::byte* peer = s.peer_base[static_cast<std::size_t>(target)]) {
    std::atomic_thread_fence(std::memory_order_acquire);
    std::memcpy(destination, peer + s.data_offset + offset, bytes);
    return;
  }
  rma_in_chunks(s, target, offset, bytes, [&](std::size_t done, MPI_Aint displacement, int count) {
    check_mpi(MPI_Get(static_cast<std::byte*>(destination) + done, count, MPI_BYTE, target, displacement, count,
                      MPI_BYTE, s.world_window),
              "MPI_Get");
  }, "Segment::get");
}

}  // namespace ghostwire
