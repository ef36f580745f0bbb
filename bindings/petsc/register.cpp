// SPDX-License-Identifier: BSD-3-Clause
// Entry point of libghostwire_petsc.so: PETSc's -dll_append calls PetscDLLibraryRegister_<name>.
#include "sf_ghostwire.hpp"

PetscErrorCode PetscDLLibraryRegister_ghostwire_petsc(void) {
  PetscFunctionBegin;
  PetscCall(PetscSFRegister("ghostwire", gwpetsc::create));
  PetscFunctionReturn(0);
}
