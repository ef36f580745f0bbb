// SPDX-License-Identifier: BSD-3-Clause
// How values meet: the reduction operations of allreduce and of the reverse exchange
// (Plan::reverse_exchange, HaloUpdate::reverse_run), and the number types they combine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace ghostwire {

// replace: the value that comes last wins (the reverse exchange only: its contributions come in a
// fixed order, docs/plans.md, "Reverse exchange"; allreduce refuses it).
enum class ReduceOp { sum, min, max, replace };

// The number types values are combined as; an element of a plan's region may hold several (a
// struct of three doubles is three float64 values).
enum class ScalarType { float64, float32, int32, int64 };

struct Combine {
  ReduceOp op = ReduceOp::sum;
  ScalarType type = ScalarType::float64;
};

constexpr std::size_t scalar_size(ScalarType type) noexcept {
  return type == ScalarType::float32 || type == ScalarType::int32 ? 4 : 8;
}
const char* scalar_name(ScalarType type) noexcept;  // "float64", ...
const char* reduce_name(ReduceOp op) noexcept;      // "sum", ...

// The ScalarType of T, if T is one of the four.
template <class T>
constexpr bool is_scalar_type_v = std::is_same_v<T, double> || std::is_same_v<T, float> ||
                                  std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>;
template <class T>
  requires is_scalar_type_v<T>
constexpr ScalarType scalar_type_of() noexcept {
  if constexpr (std::is_same_v<T, double>) return ScalarType::float64;
  else if constexpr (std::is_same_v<T, float>) return ScalarType::float32;
  else if constexpr (std::is_same_v<T, std::int32_t>) return ScalarType::int32;
  else return ScalarType::int64;
}

}  // namespace ghostwire
