// ghostwire::allreduce: node peers meet in shared memory (reduction_area.hpp), nodes through MPI.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "ghostwire/collective.hpp"
#include "ghostwire/error.hpp"
#include "mpi_check.hpp"
#include "reduction_area.hpp"
#include "wait.hpp"
#include "world_state.hpp"

namespace ghostwire {
namespace detail {

ReductionArea::ReductionArea(WorldState& w) {
  void* base = nullptr;
  check_mpi(MPI_Win_allocate_shared(static_cast<MPI_Aint>(part_bytes + line), 1, MPI_INFO_NULL, w.node_comm, &base,
                                    &window),
            "MPI_Win_allocate_shared");
  parts = new std::byte*[static_cast<std::size_t>(w.node_size)];
  for (int r = 0; r < w.node_size; ++r) {
    MPI_Aint size = 0;
    int unit = 0;
    void* peer = nullptr;
    check_mpi(MPI_Win_shared_query(window, r, &size, &unit, &peer), "MPI_Win_shared_query");
    // Mappings keep the offset within a page, so every process aligns a part to the same bytes.
    auto address = reinterpret_cast<std::uintptr_t>(peer);
    parts[r] = reinterpret_cast<std::byte*>((address + line - 1) / line * line);
  }
  std::memset(parts[w.node_rank], 0, part_bytes);  // epochs start at 0: nothing published
  check_mpi(MPI_Comm_split(w.comm, w.node_rank == 0 ? 0 : MPI_UNDEFINED, w.rank, &leaders), "MPI_Comm_split");
  // Nobody may look at a part before its owner has cleared it.
  check_mpi(MPI_Barrier(w.node_comm), "MPI_Barrier");
}

ReductionArea::~ReductionArea() {
  if (leaders != MPI_COMM_NULL) MPI_Comm_free(&leaders);
  if (window != MPI_WIN_NULL) MPI_Win_free(&window);
  delete[] parts;
}

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
  }
  return MPI_OP_NULL;
}

template <class T>
void allreduce_values(World& world, std::span<T> values, ReduceOp op, MPI_Datatype type) {
  WorldState& w = world.state();
  if (op != ReduceOp::sum && op != ReduceOp::min && op != ReduceOp::max)
    raise(Errc::invalid_argument, "allreduce: unknown ReduceOp " + std::to_string(static_cast<int>(op)));
  const std::size_t count = values.size(), bytes = values.size_bytes();
  if (count == 0) return;
  if (w.node_size == 1 || bytes > ReductionArea::capacity_bytes) {
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(count), type, mpi_op(op), w.comm),
              "MPI_Allreduce");
    return;
  }
  if (!w.reduction) w.reduction = std::make_unique<ReductionArea>(w);
  ReductionArea& area = *w.reduction;
  const std::uint64_t epoch = ++area.epoch;
  const int parity = static_cast<int>(epoch & 1u);

  std::byte* mine = area.slot(w.node_rank, parity);
  std::memcpy(mine + ReductionArea::values_offset, values.data(), bytes);
  publish(mine, epoch);

  auto result_slot = [&] { return area.slot(0, 2 + parity); };
  if (w.node_count > 1 && w.node_rank != 0) {  // the node's first rank brings the world's result
    std::byte* result = result_slot();
    wait_until(w, [&] { return published(result, epoch); }, [&] {
      return "allreduce " + std::to_string(epoch) + ": the world's result from node rank 0 (rank " +
             std::to_string(w.node_ranks[0]) + ") of node " + std::to_string(w.node);
    });
    std::memcpy(values.data(), result + ReductionArea::values_offset, bytes);
    return;
  }
  // Combine the node in node-rank order: the same bits on every rank that does it.
  for (int r = 0; r < w.node_size; ++r) {
    std::byte* slot = area.slot(r, parity);
    wait_until(w, [&] { return published(slot, epoch); }, [&] {
      return "allreduce " + std::to_string(epoch) + ": the values of rank " + std::to_string(w.node_ranks[static_cast<std::size_t>(r)]) +
             " (node rank " + std::to_string(r) + ", " + std::to_string(count) + " element(s))";
    });
    const T* theirs = reinterpret_cast<const T*>(slot + ReductionArea::values_offset);
    if (r == 0) {
      std::memcpy(values.data(), theirs, bytes);
    } else {
      for (std::size_t i = 0; i < count; ++i) values[i] = combine(op, values[i], theirs[i]);
    }
  }
  if (w.node_count == 1) return;
  check_mpi(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(count), type, mpi_op(op), area.leaders),
            "MPI_Allreduce");
  std::byte* result = result_slot();
  std::memcpy(result + ReductionArea::values_offset, values.data(), bytes);
  publish(result, epoch);
}

}  // namespace
}  // namespace detail

void allreduce(World& world, std::span<double> values, ReduceOp op) {
  detail::allreduce_values(world, values, op, MPI_DOUBLE);
}

void allreduce(World& world, std::span<std::int64_t> values, ReduceOp op) {
  detail::allreduce_values(world, values, op, MPI_INT64_T);
}

}  // namespace ghostwire
