// SPDX-License-Identifier: BSD-3-Clause
#include "transfer.hpp"

#include <cstdlib>
#include <cstring>

namespace gwpetsc {

const char* const transfer_names[3] = {"auto", "segment", "cma"};

PetscErrorCode transfer_from_environment(Transfer* transfer) {
  const char* value = std::getenv("GHOSTWIRE_PETSC_TRANSFER");
  PetscFunctionBegin;
  *transfer = Transfer::automatic;
  if (!value || !*value) PetscFunctionReturn(0);
  for (int i = 0; i < 3; ++i)
    if (!std::strcmp(value, transfer_names[i])) {
      *transfer = static_cast<Transfer>(i);
      PetscFunctionReturn(0);
    }
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "GHOSTWIRE_PETSC_TRANSFER=%s: expected auto, segment or cma", value);
}

}  // namespace gwpetsc
