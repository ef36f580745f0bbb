// SPDX-License-Identifier: BSD-3-Clause
#include "fast_ops.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gwpetsc {

void pack(const void* base, const PetscInt* index, PetscInt n, std::size_t unit_bytes, void* packed) {
  const auto* from = static_cast<const std::byte*>(base);
  auto* to = static_cast<std::byte*>(packed);
  for (PetscInt k = 0; k < n; ++k)
    std::memcpy(to + static_cast<std::size_t>(k) * unit_bytes, from + static_cast<std::size_t>(index[k]) * unit_bytes,
                unit_bytes);
}

namespace {

struct IntPair {
  int value, index;
};

// One MPI_Op on one element type: apply(target, source) stores op(source, target) in target.
template <class T, class Op>
void unpack_with(void* base, const PetscInt* index, PetscInt n, int count, const void* packed) {
  T* target = static_cast<T*>(base);
  const T* source = static_cast<const T*>(packed);
  for (PetscInt k = 0; k < n; ++k) {
    T* unit = target + static_cast<std::size_t>(index[k]) * count;
    const T* in = source + static_cast<std::size_t>(k) * count;
    for (int c = 0; c < count; ++c) Op::apply(unit[c], in[c]);
  }
}

struct Replace { template <class T> static void apply(T& t, const T& s) { t = s; } };
struct Sum { template <class T> static void apply(T& t, const T& s) { t = static_cast<T>(t + s); } };
struct Prod { template <class T> static void apply(T& t, const T& s) { t = static_cast<T>(t * s); } };
// As PetscMax and PetscMin, which basic applies: the same result with a NaN on either side.
struct Max { template <class T> static void apply(T& t, const T& s) { t = t < s ? s : t; } };
struct Min { template <class T> static void apply(T& t, const T& s) { t = t < s ? t : s; } };
struct LogicalAnd { template <class T> static void apply(T& t, const T& s) { t = static_cast<T>(t && s); } };
struct LogicalOr { template <class T> static void apply(T& t, const T& s) { t = static_cast<T>(t || s); } };
struct LogicalXor { template <class T> static void apply(T& t, const T& s) { t = static_cast<T>(!t != !s); } };
struct BitAnd { template <class T> static void apply(T& t, const T& s) { t = static_cast<T>(t & s); } };
struct BitOr { template <class T> static void apply(T& t, const T& s) { t = static_cast<T>(t | s); } };
struct BitXor { template <class T> static void apply(T& t, const T& s) { t = static_cast<T>(t ^ s); } };
// MPI's MAXLOC and MINLOC: the larger (smaller) value; on a tie, the smaller index.
struct MaxLoc {
  static void apply(IntPair& t, const IntPair& s) {
    if (s.value > t.value || (s.value == t.value && s.index < t.index)) t = s;
  }
};
struct MinLoc {
  static void apply(IntPair& t, const IntPair& s) {
    if (s.value < t.value || (s.value == t.value && s.index < t.index)) t = s;
  }
};

template <class T>
UnpackFunction arithmetic(MPI_Op op) {
  if (op == MPI_REPLACE) return unpack_with<T, Replace>;
  if (op == MPI_SUM) return unpack_with<T, Sum>;
  if (op == MPI_PROD) return unpack_with<T, Prod>;
  if (op == MPI_MAX) return unpack_with<T, Max>;
  if (op == MPI_MIN) return unpack_with<T, Min>;
  if constexpr (std::is_integral_v<T>) {
    if (op == MPI_LAND) return unpack_with<T, LogicalAnd>;
    if (op == MPI_LOR) return unpack_with<T, LogicalOr>;
    if (op == MPI_LXOR) return unpack_with<T, LogicalXor>;
    if (op == MPI_BAND) return unpack_with<T, BitAnd>;
    if (op == MPI_BOR) return unpack_with<T, BitOr>;
    if (op == MPI_BXOR) return unpack_with<T, BitXor>;
  }
  return nullptr;
}

}  // namespace

UnpackFunction unpack_function(Element element, MPI_Op op) {
  switch (element) {
    case Element::f64: return arithmetic<double>(op);
    case Element::f32: return arithmetic<float>(op);
    case Element::i8: return arithmetic<std::int8_t>(op);
    case Element::u8: return arithmetic<std::uint8_t>(op);
    case Element::i16: return arithmetic<std::int16_t>(op);
    case Element::u16: return arithmetic<std::uint16_t>(op);
    case Element::i32: return arithmetic<std::int32_t>(op);
    case Element::u32: return arithmetic<std::uint32_t>(op);
    case Element::i64: return arithmetic<std::int64_t>(op);
    case Element::u64: return arithmetic<std::uint64_t>(op);
    case Element::int_pair:
      if (op == MPI_REPLACE) return unpack_with<IntPair, Replace>;
      if (op == MPI_MAXLOC) return unpack_with<IntPair, MaxLoc>;
      if (op == MPI_MINLOC) return unpack_with<IntPair, MinLoc>;
      return nullptr;
    case Element::text_char: return op == MPI_REPLACE ? unpack_with<char, Replace> : nullptr;
  }
  return nullptr;
}

}  // namespace gwpetsc
