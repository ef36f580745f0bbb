// SPDX-License-Identifier: BSD-3-Clause
// ghostwire::allreduce and allreduce_start: node peers meet in shared memory (reduction_area.hpp),
// nodes through MPI. Invariants: every rank combines the same values in node-rank order, so all get
// the same bits; at most one reduction per World is under way (WorldState::reduction_pending), which
// is what keeps the two alternating slots of a rank safe. docs/runtime.md, "Reductions".
#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>
#include <utility>

#include "ghostwire/collective.hpp"
#include "ghostwire/error.hpp"
#include "mpi_check.hpp"
#include "reduction_area.hpp"
#include "shared_window.hpp"
#include "wait.hpp"
#include "world_state.hpp"

namespace ghostwire {
namespace detail {

ReductionArea::ReductionArea(WorldState& w) {
  NodeSharedWindow shared = allocate_node_shared(w.node_comm, part_bytes, line, false);
  window = shared.window;
  parts = std::move(shared.parts);
  std::memset(parts[static_cast<std::size_t>(w.node_rank)], 0, part_bytes);  // epochs start at 0: nothing published
  check_mpi(MPI_Comm_split(w.comm, w.node_rank == 0 ? 0 : MPI_UNDEFINED, w.rank, &leaders), "MPI_Comm_split");
  // Nobody may look at a part before its owner has cleared it.
  check_mpi(MPI_Barrier(w.node_comm), "MPI_Barrier");
}

// Unchecked: a destructor must not throw, and the World frees the area only while MPI runs.
ReductionArea::~ReductionArea() {
  if (leaders != MPI_COMM_NULL) MPI_Comm_free(&leaders);
  if (window != MPI_WIN_NULL) MPI_Win_free(&window);
}

// One reduction under way: where its values are, and how far it got.
struct ReductionCall {
  WorldState* w = nullptr;
  void* values = nullptr;
  std::size_t count = 0, bytes = 0;
  ReduceOp op = ReduceOp::sum;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  std::uint64_t epoch = 0;                  // shared-memory path: this call's epoch
  MPI_Request request = MPI_REQUEST_NULL;   // MPI path: the MPI_Iallreduce
  bool done = false;                         // nothing left for the wait
  void (*combine_node)(ReductionCall&) = nullptr;  // shared-memory path, typed

  static PendingReduction handle(std::unique_ptr<ReductionCall> call) { return PendingReduction(std::move(call)); }
};

namespace {

std::uint64_t* epoch_word(std::byte* slot) { return reinterpret_cast<std::uint64_t*>(slot); }
bool published(std::byte* slot, std::uint64_t epoch) {
  return std::atomic_ref<std::uint64_t>(*epoch_word(slot)).load(std::memory_order_acquire) == epoch;
}
void publish(std::byte* slot, std::uint64_t epoch) {
  std::atomic_ref<std::uint64_t>(*epoch_word(slot)).store(epoch, std::memory_order_release);
}

MPI_Op mpi_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return MPI_SUM;
    case ReduceOp::min: return MPI_MIN;
    case ReduceOp::max: return MPI_MAX;
    case ReduceOp::replace: break;  // refused by start_reduction
  }
  return MPI_OP_NULL;
}

// Combines the node's published values in node-rank order (the same bits on every rank that does
// it) and, with several nodes, brings the world's result: through the node's first rank.
template <class T>
void combine_node_values(ReductionCall& call) {
  WorldState& w = *call.w;
  ReductionArea& area = *w.reduction;
  const std::uint64_t epoch = call.epoch;
  const int parity = static_cast<int>(epoch & 1u);
  T* values = static_cast<T*>(call.values);
  const std::size_t count = call.count, bytes = call.bytes;
  auto result_slot = [&] { return area.slot(0, 2 + parity); };
  if (w.node_count > 1 && w.node_rank != 0) {  // the node's first rank brings the world's result
    std::byte* result = result_slot();
    wait_until(w, [&] { return published(result, epoch); }, [&] {
      return "allreduce " + std::to_string(epoch) + ": the world's result from node rank 0 (rank " +
             std::to_string(w.node_ranks[0]) + ") of node " + std::to_string(w.node);
    });
    std::memcpy(values, result + ReductionArea::values_offset, bytes);
    return;
  }
  for (int r = 0; r < w.node_size; ++r) {
    std::byte* slot = area.slot(r, parity);
    wait_until(w, [&] { return published(slot, epoch); }, [&] {
      return "allreduce " + std::to_string(epoch) + ": the values of rank " +
             std::to_string(w.node_ranks[static_cast<std::size_t>(r)]) + " (node rank " + std::to_string(r) + ", " +
             std::to_string(count) + " element(s))";
    });
    const T* theirs = reinterpret_cast<const T*>(slot + ReductionArea::values_offset);
    if (r == 0) {
      std::memcpy(values, theirs, bytes);
    } else {
      for (std::size_t i = 0; i < count; ++i) values[i] = combine(call.op, values[i], theirs[i]);
    }
  }
  if (w.node_count == 1) return;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, values, static_cast<int>(count), call.type, mpi_op(call.op), area.leaders),
            "MPI_Allreduce");
  std::byte* result = result_slot();
  std::memcpy(result + ReductionArea::values_offset, values, bytes);
  publish(result, epoch);
}

// `blocking`: the caller waits right away (allreduce), so the MPI path is a plain MPI_Allreduce.
// Fills `call` (the blocking call keeps it on its stack: no allocation per reduction).
template <class T>
void start_reduction(ReductionCall& call, World& world, std::span<T> values, ReduceOp op, MPI_Datatype type,
                     const char* call_name, bool blocking) {
  require_mpi_running(call_name);
  WorldState& w = world_state(world);
  if (op == ReduceOp::replace)
    raise(Errc::invalid_argument, std::string(call_name) + ": ReduceOp::replace has no meaning over ranks (sum, min or max)");
  if (op != ReduceOp::sum && op != ReduceOp::min && op != ReduceOp::max)
    raise(Errc::invalid_argument,
          std::string(call_name) + ": unknown ReduceOp " + std::to_string(static_cast<int>(op)));
  if (w.reduction_pending)
    raise(Errc::state, std::string(call_name) +
                           ": a reduction started with allreduce_start is still under way on this World; "
                           "wait() for it first");
  call.w = &w;
  call.values = values.data();
  call.count = values.size();
  call.bytes = values.size_bytes();
  call.op = op;
  call.type = type;
  call.done = call.count == 0;
  if (call.done) return;
  // Decided alike on every rank (a collective choice): with nodes of unequal sizes a rank alone on
  // its node still takes the shared path as its node's first rank, or it would wait in a different
  // collective from the other nodes' first ranks (3 ranks on 2 hosts deadlocked so).
  const bool every_node_single = w.node_count == w.size;
  if (every_node_single || call.bytes > ReductionArea::capacity_bytes) {
    if (blocking) {
      check_mpi(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(call.count), type, mpi_op(op), w.comm),
                "MPI_Allreduce");
      call.done = true;
      return;
    }
    w.reduction_pending = true;
    check_mpi(MPI_Iallreduce(MPI_IN_PLACE, values.data(), static_cast<int>(call.count), type, mpi_op(op), w.comm,
                             &call.request),
              "MPI_Iallreduce");
    return;
  }
  w.reduction_pending = true;
  if (!w.reduction) w.reduction = std::make_unique<ReductionArea>(w);
  ReductionArea& area = *w.reduction;
  call.epoch = ++area.epoch;
  std::byte* mine = area.slot(w.node_rank, static_cast<int>(call.epoch & 1u));
  std::memcpy(mine + ReductionArea::values_offset, values.data(), call.bytes);
  publish(mine, call.epoch);
  call.combine_node = combine_node_values<T>;
}

void finish_reduction(ReductionCall& call) {
  if (call.done) return;
  call.done = true;
  WorldState& w = *call.w;
  // Cleared first: a timeout below leaves the World unusable for reductions anyway, and the flag
  // must not outlive a handle that has given up.
  w.reduction_pending = false;
  if (call.combine_node) {
    call.combine_node(call);
  } else {
    wait_request(w, call.request, [&] {
      return "allreduce of " + std::to_string(call.count) +
             " element(s) through MPI_Iallreduce (did every rank call it?)";
    });
  }
}

}  // namespace
}  // namespace detail

namespace detail {
namespace {

template <class T>
void blocking_allreduce(World& world, std::span<T> values, ReduceOp op, MPI_Datatype type) {
  ReductionCall call;
  start_reduction(call, world, values, op, type, "allreduce", true);
  finish_reduction(call);
}

template <class T>
PendingReduction start_allreduce(World& world, std::span<T> values, ReduceOp op, MPI_Datatype type) {
  auto call = std::make_unique<ReductionCall>();
  start_reduction(*call, world, values, op, type, "allreduce_start", false);
  return ReductionCall::handle(std::move(call));
}

}  // namespace
}  // namespace detail

void allreduce(World& world, std::span<double> values, ReduceOp op) {
  detail::blocking_allreduce(world, values, op, MPI_DOUBLE);
}

void allreduce(World& world, std::span<std::int64_t> values, ReduceOp op) {
  detail::blocking_allreduce(world, values, op, MPI_INT64_T);
}

PendingReduction allreduce_start(World& world, std::span<double> values, ReduceOp op) {
  return detail::start_allreduce(world, values, op, MPI_DOUBLE);
}

PendingReduction allreduce_start(World& world, std::span<std::int64_t> values, ReduceOp op) {
  return detail::start_allreduce(world, values, op, MPI_INT64_T);
}

PendingReduction::PendingReduction() noexcept = default;
PendingReduction::PendingReduction(std::unique_ptr<detail::ReductionCall> call) noexcept : call_(std::move(call)) {}
PendingReduction::PendingReduction(PendingReduction&& other) noexcept = default;

PendingReduction& PendingReduction::operator=(PendingReduction&& other) noexcept {
  if (this != &other) {
    try {
      wait();
    } catch (const std::exception&) {
    }
    call_ = std::move(other.call_);
  }
  return *this;
}

PendingReduction::~PendingReduction() {
  try {
    wait();
  } catch (const std::exception&) {
    // A destructor must not throw; a timeout has printed its diagnostic already.
  }
}

void PendingReduction::wait() {
  if (!call_) return;
  std::unique_ptr<detail::ReductionCall> call = std::move(call_);
  detail::finish_reduction(*call);
}

}  // namespace ghostwire
