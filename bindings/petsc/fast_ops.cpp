// SPDX-License-Identifier: BSD-3-Clause
#include "fast_ops.hpp"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace gwpetsc {

namespace {

// With the unit size known to the compiler each copy is a load and a store, not a call: strided
// faces (a DMDA's x-faces) are packed unit by unit.
template <std::size_t bytes>
void pack_units(const std::byte* from, const PetscInt* index, PetscInt n, std::size_t unit_bytes, std::byte* to) {
  const std::size_t size = bytes ? bytes : unit_bytes;
  for (PetscInt k = 0; k < n; ++k)
    std::memcpy(to + static_cast<std::size_t>(k) * size, from + static_cast<std::size_t>(index[k]) * size, size);
}

}  // namespace

void pack(const void* base, const PetscInt* index, PetscInt n, std::size_t unit_bytes, void* packed) {
  const auto* from = static_cast<const std::byte*>(base);
  auto* to = static_cast<std::byte*>(packed);
  switch (unit_bytes) {
    case 4: return pack_units<4>(from, index, n, unit_bytes, to);
    case 8: return pack_units<8>(from, index, n, unit_bytes, to);
    case 16: return pack_units<16>(from, index, n, unit_bytes, to);
    case 32: return pack_units<32>(from, index, n, unit_bytes, to);
    default: return pack_units<0>(from, index, n, unit_bytes, to);
  }
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

// The same over a contiguous run of elements (a loop the compiler vectorises).
template <class T, class Op>
void combine_contiguous(void* target, const void* source, std::size_t elements) {
  T* t = static_cast<T*>(target);
  const T* s = static_cast<const T*>(source);
  for (std::size_t i = 0; i < elements; ++i) Op::apply(t[i], s[i]);
}

template <class T>
void replace_contiguous(void* target, const void* source, std::size_t elements) {
  std::memmove(target, source, elements * sizeof(T));
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


// Both forms of one (element type, op): per unit by index, and per contiguous run.
struct Functions {
  UnpackFunction unpack = nullptr;
  CombineRun run = nullptr;
};

template <class T, class Op>
Functions both() {
  if constexpr (std::is_same_v<Op, Replace>) return {unpack_with<T, Op>, replace_contiguous<T>};
  else return {unpack_with<T, Op>, combine_contiguous<T, Op>};
}

template <class T>
Functions arithmetic_both(MPI_Op op) {
  if (op == MPI_REPLACE) return both<T, Replace>();
  if (op == MPI_SUM) return both<T, Sum>();
  if (op == MPI_PROD) return both<T, Prod>();
  if (op == MPI_MAX) return both<T, Max>();
  if (op == MPI_MIN) return both<T, Min>();
  if constexpr (std::is_integral_v<T>) {
    if (op == MPI_LAND) return both<T, LogicalAnd>();
    if (op == MPI_LOR) return both<T, LogicalOr>();
    if (op == MPI_LXOR) return both<T, LogicalXor>();
    if (op == MPI_BAND) return both<T, BitAnd>();
    if (op == MPI_BOR) return both<T, BitOr>();
    if (op == MPI_BXOR) return both<T, BitXor>();
  }
  return {};
}

Functions functions(Element element, MPI_Op op) {
  switch (element) {
    case Element::f64: return arithmetic_both<double>(op);
    case Element::f32: return arithmetic_both<float>(op);
    case Element::i8: return arithmetic_both<std::int8_t>(op);
    case Element::u8: return arithmetic_both<std::uint8_t>(op);
    case Element::i16: return arithmetic_both<std::int16_t>(op);
    case Element::u16: return arithmetic_both<std::uint16_t>(op);
    case Element::i32: return arithmetic_both<std::int32_t>(op);
    case Element::u32: return arithmetic_both<std::uint32_t>(op);
    case Element::i64: return arithmetic_both<std::int64_t>(op);
    case Element::u64: return arithmetic_both<std::uint64_t>(op);
    case Element::int_pair:
      if (op == MPI_REPLACE) return both<IntPair, Replace>();
      if (op == MPI_MAXLOC) return both<IntPair, MaxLoc>();
      if (op == MPI_MINLOC) return both<IntPair, MinLoc>();
      return {};
    case Element::text_char: return op == MPI_REPLACE ? both<char, Replace>() : Functions{};
  }
  return {};
}

}  // namespace

CombineRun combine_run_function(Element element, MPI_Op op) { return functions(element, op).run; }

void combine_runs(const std::vector<Run>& runs, void* target, const void* source, const Unit& unit, CombineRun combine) {
  auto* to = static_cast<std::byte*>(target);
  const auto* from = static_cast<const std::byte*>(source);
  const auto count = static_cast<std::size_t>(unit.count);
  for (const Run& r : runs)
    combine(to + static_cast<std::size_t>(r.to) * unit.bytes, from + static_cast<std::size_t>(r.from) * unit.bytes,
            static_cast<std::size_t>(r.length) * count);
}

UnpackFunction unpack_function(Element element, MPI_Op op) { return functions(element, op).unpack; }

void copy_runs(const std::vector<Run>& runs, void* target, const void* source, std::size_t unit_bytes) {
  auto* to = static_cast<std::byte*>(target);
  const auto* from = static_cast<const std::byte*>(source);
  for (const Run& r : runs)
    std::memcpy(to + static_cast<std::size_t>(r.to) * unit_bytes, from + static_cast<std::size_t>(r.from) * unit_bytes,
                static_cast<std::size_t>(r.length) * unit_bytes);
}

}  // namespace gwpetsc
