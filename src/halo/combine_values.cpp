// SPDX-License-Identifier: BSD-3-Clause
// The element-wise combination of the reverse exchange (halo/reverse.hpp), one loop per operation
// and number type so the compiler vectorises each.
#include <cstdint>
#include <cstring>

#include "halo/reverse.hpp"

namespace ghostwire {

const char* scalar_name(ScalarType type) noexcept {
  switch (type) {
    case ScalarType::float64: return "float64";
    case ScalarType::float32: return "float32";
    case ScalarType::int32: return "int32";
    case ScalarType::int64: return "int64";
  }
  return "?";
}

const char* reduce_name(ReduceOp op) noexcept {
  switch (op) {
    case ReduceOp::sum: return "sum";
    case ReduceOp::min: return "min";
    case ReduceOp::max: return "max";
    case ReduceOp::replace: return "replace";
  }
  return "?";
}

namespace detail {

namespace {

// Values are read and written through memcpy: a region's elements need not be aligned for T.
template <class T, class Op>
void combine_as(std::byte* to, const std::byte* from, std::size_t count, Op op) {
  for (std::size_t i = 0; i < count; ++i) {
    T a, b;
    std::memcpy(&a, to + i * sizeof(T), sizeof(T));
    std::memcpy(&b, from + i * sizeof(T), sizeof(T));
    a = op(a, b);
    std::memcpy(to + i * sizeof(T), &a, sizeof(T));
  }
}

// One switch per stretch of runs, not per run: a point cloud's owned values are runs of one value,
// where a switch per run cost more than the additions. Such a run skips the loop, and as the owned
// values of scattered runs are cache misses, their lines are asked for a few runs ahead.
template <class T, class Op>
void combine_runs_as(std::span<const ReverseRun> runs, const std::byte* scratch, Op op) {
  constexpr std::size_t ahead = 8;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const ReverseRun& run = runs[i];
    if (i + ahead < runs.size()) __builtin_prefetch(runs[i + ahead].owned, 1);
    if (run.bytes == sizeof(T))
      combine_as<T>(run.owned, scratch, 1, op);
    else
      combine_as<T>(run.owned, scratch, run.bytes / sizeof(T), op);
    scratch += run.bytes;
  }
}

template <class T>
void combine_runs_typed(ReduceOp op, std::span<const ReverseRun> runs, const std::byte* scratch) {
  switch (op) {
    case ReduceOp::sum: return combine_runs_as<T>(runs, scratch, [](T a, T b) { return a + b; });
    case ReduceOp::min: return combine_runs_as<T>(runs, scratch, [](T a, T b) { return b < a ? b : a; });
    case ReduceOp::max: return combine_runs_as<T>(runs, scratch, [](T a, T b) { return a < b ? b : a; });
    case ReduceOp::replace:
      for (const ReverseRun& run : runs) {
        std::memcpy(run.owned, scratch, run.bytes);
        scratch += run.bytes;
      }
      return;
  }
}

}  // namespace

void combine_runs(Combine how, std::span<const ReverseRun> runs, const std::byte* scratch) {
  switch (how.type) {
    case ScalarType::float64: return combine_runs_typed<double>(how.op, runs, scratch);
    case ScalarType::float32: return combine_runs_typed<float>(how.op, runs, scratch);
    case ScalarType::int32: return combine_runs_typed<std::int32_t>(how.op, runs, scratch);
    case ScalarType::int64: return combine_runs_typed<std::int64_t>(how.op, runs, scratch);
  }
}

}  // namespace detail
}  // namespace ghostwire
