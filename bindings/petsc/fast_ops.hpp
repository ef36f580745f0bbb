// SPDX-License-Identifier: BSD-3-Clause
// The fast path's own pack and unpack: packing copies whole units by index; unpacking combines
// each packed unit into its place with the MPI_Op, unit by unit in message order (so duplicate
// indices combine in a fixed order, and MPI_REPLACE leaves the last one).
#pragma once

#include <petscsys.h>

#include <cstddef>

#include "unit.hpp"

namespace gwpetsc {

// packed[k] = base[index[k]] for k < n, units of `unit_bytes`.
void pack(const void* base, const PetscInt* index, PetscInt n, std::size_t unit_bytes, void* packed);

// base[index[k]] = op(packed[k], base[index[k]]) for k < n, element by element.
using UnpackFunction = void (*)(void* base, const PetscInt* index, PetscInt n, int count, const void* packed);

// Null when `op` is not one the fast path applies to `element` (user ops, MPI_MAXLOC on a double,
// bitwise ops on floating point, any reduction of MPI_CHAR): the operation goes to the inner SF.
UnpackFunction unpack_function(Element element, MPI_Op op);

}  // namespace gwpetsc
