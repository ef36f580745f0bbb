// SPDX-License-Identifier: BSD-3-Clause
// How a node peer's units reach me (docs/petsc.md, "One copy or two"): staged through the sender's
// part of a shared Segment (it packs, I combine: two copies), or read by me straight from the
// sender's array with cross-memory attach (one copy). -sf_ghostwire_transfer and
// GHOSTWIRE_PETSC_TRANSFER choose: auto (by message size and runs), segment or cma.
#pragma once

#include <petscsys.h>

namespace gwpetsc {

enum class Transfer { automatic = 0, segment = 1, cma = 2 };

// The names, in the order of the enum (for PetscOptionsEList).
extern const char* const transfer_names[3];

// GHOSTWIRE_PETSC_TRANSFER, or auto when unset; an unknown value is an error naming it.
PetscErrorCode transfer_from_environment(Transfer* transfer);

}  // namespace gwpetsc
