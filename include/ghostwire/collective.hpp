// SPDX-License-Identifier: BSD-3-Clause
// Reductions over a World without a round trip through MPI inside a node.
//
//   double sums[2] = {interior, flux};
//   ghostwire::allreduce(world, std::span<double>(sums), ghostwire::ReduceOp::sum);
//
//   auto pending = ghostwire::allreduce_start(world, std::span<double>(sums), ghostwire::ReduceOp::sum);
//   update.run();      // another synchronisation (a halo exchange): the reduction rides on it
//   pending.wait();    // sums[] now hold the result
//
// Node peers publish their values in shared memory and every rank combines them itself, in rank
// order; across nodes, each node's first rank combines its node and the node results go through
// MPI_Allreduce. Every rank gets the same bits, on every run with the same ranks and nodes.
// docs/runtime.md, "Reductions".
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "ghostwire/combine.hpp"
#include "ghostwire/world.hpp"

namespace ghostwire {

namespace detail {
// One step of a reduction, the same in allreduce and the dist algorithms (reduce).
template <class T>
T combine(ReduceOp op, const T& a, const T& b) {
  switch (op) {
    case ReduceOp::sum: return a + b;
    case ReduceOp::min: return b < a ? b : a;
    case ReduceOp::max: return a < b ? b : a;
    case ReduceOp::replace: return b;
  }
  return a;
}
}  // namespace detail

// Element-wise over all ranks of `world`, in place. Collective: every rank passes the same count
// and op. Waits time out like every ghostwire wait (GHOSTWIRE_TIMEOUT).
void allreduce(World& world, std::span<double> values, ReduceOp op);
void allreduce(World& world, std::span<std::int64_t> values, ReduceOp op);

namespace detail {
struct ReductionCall;
}

// A reduction under way (allreduce_start): wait() leaves the result in the values it was started
// on. Destroying it unwaited waits. One reduction per World may be under way at a time, and no
// allreduce may be called meanwhile (Errc::state).
class PendingReduction {
 public:
  PendingReduction() noexcept;
  PendingReduction(PendingReduction&& other) noexcept;
  PendingReduction& operator=(PendingReduction&& other) noexcept;
  ~PendingReduction();

  void wait();
  bool pending() const noexcept { return call_ != nullptr; }

 private:
  friend struct detail::ReductionCall;
  explicit PendingReduction(std::unique_ptr<detail::ReductionCall> call) noexcept;
  std::unique_ptr<detail::ReductionCall> call_;
};

// Split-phase allreduce: this rank's contribution is published now and combined at wait(), so the
// time the ranks take to meet can be shared with another synchronisation in between (miniGhost
// overlaps its conservation sums with the next halo exchange). Node peers publish in shared memory
// as allreduce does, and never wait at start; across nodes, or for counts past the shared slots,
// it is an MPI_Iallreduce. `values` must stay valid and untouched until wait(). Same bits as
// allreduce. Collective: start and wait in the same order on every rank.
[[nodiscard]] PendingReduction allreduce_start(World& world, std::span<double> values, ReduceOp op);
[[nodiscard]] PendingReduction allreduce_start(World& world, std::span<std::int64_t> values, ReduceOp op);

}  // namespace ghostwire
