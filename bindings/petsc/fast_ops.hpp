// SPDX-License-Identifier: BSD-3-Clause
// The fast path's own pack and unpack: packing copies whole units by index; unpacking combines
// each packed unit into its place with the MPI_Op, unit by unit in message order (so duplicate
// indices combine in a fixed order, and MPI_REPLACE leaves the last one).
#pragma once

#include <petscsys.h>

#include <cstddef>

#include "index_runs.hpp"
#include "unit.hpp"

namespace gwpetsc {

// packed[k] = base[index[k]] for k < n, units of `unit_bytes`.
void pack(const void* base, const PetscInt* index, PetscInt n, std::size_t unit_bytes, void* packed);

// base[index[k]] = op(packed[k], base[index[k]]) for k < n, element by element.
using UnpackFunction = void (*)(void* base, const PetscInt* index, PetscInt n, int count, const void* packed);

// Null when `op` is not one the fast path applies to `element` (user ops, MPI_MAXLOC on a double,
// bitwise ops on floating point, any reduction of MPI_CHAR): the operation goes to the inner SF.
UnpackFunction unpack_function(Element element, MPI_Op op);

// target[i] = op(source[i], target[i]) for `elements` consecutive elements (MPI_REPLACE: memmove).
using CombineRun = void (*)(void* target, const void* source, std::size_t elements);
// Null exactly where unpack_function is.
CombineRun combine_run_function(Element element, MPI_Op op);

// Every run's units of `unit_bytes` copied from `source` to `target` (packing by runs).
void copy_runs(const std::vector<Run>& runs, void* target, const void* source, std::size_t unit_bytes);
// Every run's units of `unit` from `source` combined onto `target`, in run order.
void combine_runs(const std::vector<Run>& runs, void* target, const void* source, const Unit& unit, CombineRun combine);

}  // namespace gwpetsc
