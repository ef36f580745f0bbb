// Reductions over a World without a round trip through MPI inside a node.
//
//   double sums[2] = {interior, flux};
//   ghostwire::allreduce(world, std::span<double>(sums), ghostwire::ReduceOp::sum);
//
// Node peers publish their values in shared memory and every rank combines them itself, in rank
// order; across nodes, each node's first rank combines its node and the node results go through
// MPI_Allreduce. Every rank gets the same bits, on every run with the same ranks and nodes.
#pragma once

#include <cstdint>
#include <span>

#include "ghostwire/world.hpp"

namespace ghostwire {

enum class ReduceOp { sum, min, max };

namespace detail {
// One step of a reduction, the same in allreduce and the dist algorithms (reduce).
template <class T>
T combine(ReduceOp op, const T& a, const T& b) {
  switch (op) {
    case ReduceOp::sum: return a + b;
    case ReduceOp::min: return b < a ? b : a;
    case ReduceOp::max: return a < b ? b : a;
  }
  return a;
}
}  // namespace detail

// Element-wise over all ranks of `world`, in place. Collective: every rank passes the same count
// and op. Waits time out like every ghostwire wait (GHOSTWIRE_TIMEOUT).
void allreduce(World& world, std::span<double> values, ReduceOp op);
void allreduce(World& world, std::span<std::int64_t> values, ReduceOp op);

}  // namespace ghostwire
