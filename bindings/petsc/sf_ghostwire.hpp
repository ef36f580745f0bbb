// SPDX-License-Identifier: BSD-3-Clause
// The PetscSF type "ghostwire": its private data and the ops the other files provide.
// Every SF of this type holds an inner PETSCSFBASIC SF on the same graph; whatever the fast path
// (fast_path.hpp) does not take goes to it.
#pragma once

#include <petsc/private/sfimpl.h>

#include <memory>

#include "transfer.hpp"

namespace gwpetsc {

class FastPath;

struct SfData {
  PetscSF inner = nullptr;          // PETSCSFBASIC on the same graph, built at SetUp
  std::unique_ptr<FastPath> fast;   // null when the SF is not accelerated
  PetscBool use_fast = PETSC_TRUE;  // -sf_ghostwire_fast
  Transfer transfer = Transfer::automatic;  // -sf_ghostwire_transfer, GHOSTWIRE_PETSC_TRANSFER
};

inline SfData& data(PetscSF sf) { return *static_cast<SfData*>(sf->data); }

// sf_type.cpp
PetscErrorCode create(PetscSF sf);

// sf_delegate.cpp: the communication ops, fast path first, inner SF otherwise.
void set_communication_ops(PetscSF sf);

}  // namespace gwpetsc

// PETSc calls this when -dll_append loads libghostwire_petsc.so.
extern "C" __attribute__((visibility("default"))) PetscErrorCode PetscDLLibraryRegister_ghostwire_petsc(void);
