// SPDX-License-Identifier: BSD-3-Clause
// Runs of units whose indices go on by one on both sides (a DMDA's rows, a block of leaves): packing
// and combining such a sequence is one memcpy or one vectorisable loop per run instead of a call per
// unit. Built once per graph; used where runs are long enough to pay (docs/petsc.md, "How it works").
#pragma once

#include <petscsys.h>

#include <cstddef>
#include <vector>

namespace gwpetsc {

struct Run {
  PetscInt from, to, length;  // units from source[from ...] onto target[to ...]
};

// The runs of n pairs (source[k], target[k]); a null list stands for first, first + 1, ...
std::vector<Run> runs_of(const PetscInt* source, PetscInt source_first, const PetscInt* target, PetscInt target_first,
                         PetscInt n);

// Runs are worth it when they hold this many units on average.
constexpr PetscInt run_worth = 4;
inline bool runs_pay(const std::vector<Run>& runs, PetscInt units) {
  return !runs.empty() && units >= run_worth * static_cast<PetscInt>(runs.size());
}

}  // namespace gwpetsc
