// SPDX-License-Identifier: BSD-3-Clause
#include "fast_path.hpp"

namespace gwpetsc {

PetscErrorCode FastPath::create(PetscSF, PetscSF, std::unique_ptr<FastPath>* fast) {
  PetscFunctionBegin;
  fast->reset();
  PetscFunctionReturn(0);
}

PetscErrorCode FastPath::destroy(std::unique_ptr<FastPath>* fast) {
  PetscFunctionBegin;
  fast->reset();
  PetscFunctionReturn(0);
}

}  // namespace gwpetsc
