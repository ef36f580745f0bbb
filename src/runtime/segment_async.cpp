// SPDX-License-Identifier: BSD-3-Clause
// AsyncTransfer: node peers are served at once through shared memory; other nodes through
// request-based one-sided operations on the segment's world window (which holds a lock_all epoch
// for its whole life), one operation per call with derived datatypes when there are several runs.
// Invariant: a put counts as complete only after the flush that makes it visible at the target.
// docs/dist.md, "Arrays, copy and copy_async".
#include "ghostwire/segment_async.hpp"

#include <atomic>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "ghostwire/error.hpp"
#include "mpi_check.hpp"
#include "piecewise_copy.hpp"
#include "segment_state.hpp"
#include "wait.hpp"

namespace ghostwire {
namespace detail {

// One MPI_Rget/MPI_Rput: `count` items of the types at the two displacements.
struct OneSidedOperation {
  MPI_Aint local_displacement;
  MPI_Datatype local_type;
  MPI_Aint remote_displacement;
  MPI_Datatype remote_type;
  int count;
};

struct AsyncTransferState {
  WorldState* w = nullptr;
  std::vector<MPI_Request> requests;
  // Targets to flush once the requests are complete: puts are complete at the target only after a
  // flush; gets need a local flush too, because MPICH 4.0 completes the request of an MPI_Rget with
  // derived datatypes before the data has arrived.
  struct Flush {
    MPI_Win window;
    int rank;
    bool remote;  // put: MPI_Win_flush; get: MPI_Win_flush_local
    bool operator==(const Flush&) const = default;
  };
  std::vector<Flush> flushes;
  std::vector<int> lengths;
  std::vector<MPI_Aint> local_displacements, remote_displacements;
  // Freed once the operations using them are complete: MPI allows freeing them at once, but
  // MPICH 4.0 then loses the data of a pending MPI_Rget on another node.
  std::vector<MPI_Datatype> types;

  void add_flush(const Flush& flush) {
    for (const Flush& f : flushes)
      if (f == flush) return;
    flushes.push_back(flush);
  }

  // Frees them all before reporting the first error, so none is freed twice.
  void free_types() {
    int first_error = MPI_SUCCESS;
    for (MPI_Datatype& type : types) {
      int freed = MPI_Type_free(&type);
      if (first_error == MPI_SUCCESS) first_error = freed;
    }
    types.clear();
    check_mpi(first_error, "MPI_Type_free");
  }

  bool test() {
    if (requests.empty() && flushes.empty()) return true;
    if (w->needs_progress) w->progress();
    if (!requests.empty()) {
      int done = 0;
      check_mpi(MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done, MPI_STATUSES_IGNORE),
                "MPI_Testall");
      if (!done) return false;
      requests.clear();
    }
    for (const Flush& f : flushes) {
      if (f.remote)
        check_mpi(MPI_Win_flush(f.rank, f.window), "MPI_Win_flush");
      else
        check_mpi(MPI_Win_flush_local(f.rank, f.window), "MPI_Win_flush_local");
    }
    flushes.clear();
    free_types();
    return true;
  }

  // Issues the runs as few one-sided operations as MPI's int counts allow.
  template <class Issue>
  void issue(const SegmentState& s, int rank, std::span<const TransferRun> runs, const char* call, Issue&& one) {
    require_world_window(s, rank, call);
    auto flush_batch = [&] {
      if (lengths.empty()) return;
      if (lengths.size() == 1) {
        one(OneSidedOperation{local_displacements[0], MPI_BYTE, remote_displacements[0], MPI_BYTE, lengths[0]});
      } else {
        MPI_Datatype local_type, remote_type;
        int count = static_cast<int>(lengths.size());
        check_mpi(MPI_Type_create_hindexed(count, lengths.data(), local_displacements.data(), MPI_BYTE, &local_type),
                  "MPI_Type_create_hindexed");
        check_mpi(MPI_Type_create_hindexed(count, lengths.data(), remote_displacements.data(), MPI_BYTE, &remote_type),
                  "MPI_Type_create_hindexed");
        check_mpi(MPI_Type_commit(&local_type), "MPI_Type_commit");
        check_mpi(MPI_Type_commit(&remote_type), "MPI_Type_commit");
        one(OneSidedOperation{0, local_type, 0, remote_type, 1});
        types.push_back(local_type);
        types.push_back(remote_type);
      }
      lengths.clear();
      local_displacements.clear();
      remote_displacements.clear();
    };
    std::size_t batch_bytes = 0;
    for (const TransferRun& run : runs) {
      for_each_mpi_chunk(run.bytes, [&](std::size_t done, int piece) {
        if (batch_bytes + static_cast<std::size_t>(piece) > max_mpi_chunk || lengths.size() >= (std::size_t{1} << 20)) {
          flush_batch();
          batch_bytes = 0;
        }
        lengths.push_back(piece);
        local_displacements.push_back(static_cast<MPI_Aint>(run.local_offset + done));
        remote_displacements.push_back(static_cast<MPI_Aint>(s.data_offset + run.remote_offset + done));
        batch_bytes += static_cast<std::size_t>(piece);
      });
    }
    flush_batch();
  }
};

namespace {

void check_runs(const SegmentState& s, int rank, std::span<const TransferRun> runs, const char* call) {
  for (const TransferRun& run : runs) check_range(s, rank, run.remote_offset, run.bytes, call);
}

std::string describe_wait(const AsyncTransferState& a) {
  std::string text = std::to_string(a.requests.size());
  text += " one-sided operation(s) of an AsyncTransfer (put targets:";
  for (const auto& f : a.flushes) {
    if (!f.remote) continue;
    text += ' ';
    text += std::to_string(f.rank);
  }
  text += ")";
  return text;
}

}  // namespace
}  // namespace detail

// The state (request and type lists) only for transfers that reach another node: a copy from node
// peers costs no allocation (docs/copy-study.md).
AsyncTransfer::AsyncTransfer(World& world) : world_(&detail::world_state(world)) {}

detail::AsyncTransferState& AsyncTransfer::state() {
  if (!state_) {
    state_ = std::make_unique<detail::AsyncTransferState>();
    state_->w = world_;
  }
  return *state_;
}

AsyncTransfer::~AsyncTransfer() {
  if (!state_) return;
  try {
    wait();
  } catch (const std::exception&) {
    // A destructor must not throw; a timeout has printed its diagnostic already.
  }
}

AsyncTransfer::AsyncTransfer(AsyncTransfer&&) noexcept = default;

AsyncTransfer& AsyncTransfer::operator=(AsyncTransfer&& other) noexcept {
  if (this != &other) {
    if (state_) {
      try {
        wait();
      } catch (const std::exception&) {
      }
    }
    world_ = other.world_;
    state_ = std::move(other.state_);
  }
  return *this;
}

void AsyncTransfer::get(const Segment& segment, int rank, std::span<const TransferRun> runs, void* local) {
  using namespace detail;
  const SegmentState& s = segment_state(segment);
  check_runs(s, rank, runs, "AsyncTransfer::get");
  auto* out = static_cast<std::byte*>(local);
  if (const std::byte* peer = s.peer_base[static_cast<std::size_t>(rank)]) {
    std::atomic_thread_fence(std::memory_order_acquire);
    for (const TransferRun& run : runs)
      piecewise_copy(out + run.local_offset, peer + s.data_offset + run.remote_offset, run.bytes);
    return;
  }
  AsyncTransferState& a = state();
  a.issue(s, rank, runs, "AsyncTransfer::get", [&](const OneSidedOperation& op) {
    MPI_Request request;
    check_mpi(MPI_Rget(out + op.local_displacement, op.count, op.local_type, rank, op.remote_displacement, op.count,
                       op.remote_type, s.world_window, &request),
              "MPI_Rget");
    a.requests.push_back(request);
  });
  a.add_flush({s.world_window, rank, false});
}

void AsyncTransfer::put(Segment& segment, int rank, std::span<const TransferRun> runs, const void* local) {
  using namespace detail;
  const SegmentState& s = segment_state(segment);
  check_runs(s, rank, runs, "AsyncTransfer::put");
  const auto* in = static_cast<const std::byte*>(local);
  if (std::byte* peer = s.peer_base[static_cast<std::size_t>(rank)]) {
    for (const TransferRun& run : runs)
      piecewise_copy(peer + s.data_offset + run.remote_offset, in + run.local_offset, run.bytes);
    std::atomic_thread_fence(std::memory_order_release);
    return;
  }
  AsyncTransferState& a = state();
  a.issue(s, rank, runs, "AsyncTransfer::put", [&](const OneSidedOperation& op) {
    MPI_Request request;
    check_mpi(MPI_Rput(in + op.local_displacement, op.count, op.local_type, rank, op.remote_displacement, op.count,
                       op.remote_type, s.world_window, &request),
              "MPI_Rput");
    a.requests.push_back(request);
  });
  a.add_flush({s.world_window, rank, true});
}

bool AsyncTransfer::test() { return !state_ || state_->test(); }

void AsyncTransfer::wait() {
  if (!state_) return;
  detail::AsyncTransferState& a = *state_;
  detail::wait_until(*a.w, [&] { return a.test(); }, [&] { return detail::describe_wait(a); });
}

std::size_t AsyncTransfer::pending() const noexcept {
  return state_ ? state_->requests.size() + state_->flushes.size() : 0;
}

}  // namespace ghostwire
