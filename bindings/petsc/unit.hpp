// SPDX-License-Identifier: BSD-3-Clause
// What a unit PETSc passes to Bcast and Reduce is made of: `count` elements of one predefined type
// (contiguous and dup'ed types unwrapped), or MPI_2INT's pairs.
#pragma once

#include <mpi.h>

#include <cstddef>

namespace gwpetsc {

enum class Element { f64, f32, i8, u8, i16, u16, i32, u32, i64, u64, int_pair, text_char };

struct Unit {
  Element element = Element::f64;
  int count = 0;           // elements per unit
  std::size_t bytes = 0;   // of one unit
};

// False for a type the fast path does not know (a struct, a vector with gaps, a user type): such
// operations go to the inner basic SF.
bool decode_unit(MPI_Datatype type, Unit* unit);

}  // namespace gwpetsc
