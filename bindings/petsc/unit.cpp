// SPDX-License-Identifier: BSD-3-Clause
#include "unit.hpp"

#include <cstdint>
#include <vector>

namespace gwpetsc {
namespace {

struct Named {
  MPI_Datatype type;
  Element element;
  std::size_t bytes;
};

// The predefined types PETSc's SFs carry (MPIU_SCALAR, MPIU_INT, char types, MPI_2INT) and their
// usual relatives. MPI_CHAR is text: MPI defines no reduction on it, so only MPI_REPLACE takes it.
bool decode_named(MPI_Datatype type, Unit* unit) {
  const Named table[] = {
      {MPI_DOUBLE, Element::f64, 8},         {MPI_FLOAT, Element::f32, 4},
      {MPI_SIGNED_CHAR, Element::i8, 1},     {MPI_UNSIGNED_CHAR, Element::u8, 1},
      {MPI_INT8_T, Element::i8, 1},          {MPI_UINT8_T, Element::u8, 1},
      {MPI_SHORT, Element::i16, 2},          {MPI_UNSIGNED_SHORT, Element::u16, 2},
      {MPI_INT, Element::i32, 4},            {MPI_UNSIGNED, Element::u32, 4},
      {MPI_INT32_T, Element::i32, 4},        {MPI_UINT32_T, Element::u32, 4},
      {MPI_INT64_T, Element::i64, 8},        {MPI_UINT64_T, Element::u64, 8},
      {MPI_LONG_LONG, Element::i64, 8},      {MPI_UNSIGNED_LONG_LONG, Element::u64, 8},
      {MPI_2INT, Element::int_pair, 8},      {MPI_CHAR, Element::text_char, 1},
  };
  for (const Named& n : table) {
    if (n.type == type) {
      *unit = Unit{n.element, 1, n.bytes};
      return true;
    }
  }
  if (type == MPI_LONG || type == MPI_UNSIGNED_LONG) {
    bool is_signed = type == MPI_LONG;
    if (sizeof(long) == 8) *unit = Unit{is_signed ? Element::i64 : Element::u64, 1, 8};
    else *unit = Unit{is_signed ? Element::i32 : Element::u32, 1, 4};
    return true;
  }
  return false;
}

// The single inner type of a contiguous or dup'ed type, with the repeat count; MPI hands out
// derived inner types as new handles the caller frees.
bool unwrap(MPI_Datatype type, MPI_Datatype* inner, int* repeat) {
  int ints = 0, addresses = 0, types = 0, combiner = 0;
  MPI_Type_get_envelope(type, &ints, &addresses, &types, &combiner);
  if ((combiner != MPI_COMBINER_CONTIGUOUS && combiner != MPI_COMBINER_DUP) || types != 1 || addresses != 0)
    return false;
  std::vector<int> int_args(ints > 0 ? ints : 1);
  MPI_Aint no_address = 0;
  MPI_Type_get_contents(type, ints, 0, 1, int_args.data(), &no_address, inner);
  *repeat = combiner == MPI_COMBINER_CONTIGUOUS ? int_args[0] : 1;
  return true;
}

void free_if_derived(MPI_Datatype type) {
  int ints = 0, addresses = 0, types = 0, combiner = 0;
  MPI_Type_get_envelope(type, &ints, &addresses, &types, &combiner);
  if (combiner != MPI_COMBINER_NAMED) MPI_Type_free(&type);
}

}  // namespace

bool decode_unit(MPI_Datatype type, Unit* unit) {
  if (type == MPI_DATATYPE_NULL) return false;
  if (decode_named(type, unit)) return true;
  MPI_Datatype inner;
  int repeat = 0;
  if (!unwrap(type, &inner, &repeat)) return false;
  bool known = repeat > 0 && decode_unit(inner, unit);
  free_if_derived(inner);
  if (!known) return false;
  unit->count *= repeat;
  unit->bytes *= static_cast<std::size_t>(repeat);
  return true;
}

}  // namespace gwpetsc
