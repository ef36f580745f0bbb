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

// Measured with gw-petsc-sf-bench -run (docs/petsc.md, "One copy or two"): a call costs some
// microseconds and every iovec (a run of the sender's array) pins its pages, so one copy pays from
// 8-16 KiB (2 ranks on 2 cores; 32 KiB with 4 ranks sharing them) in runs of 4 KiB on average;
// above 1 MiB a combining op (read, then combine on one core) loses to the segment's two copies on
// two cores, a replacement (read into place) does not.
constexpr std::size_t cma_min_bytes = 16 * 1024;
constexpr std::size_t cma_min_run_bytes = 4 * 1024;
constexpr std::size_t cma_max_combined_bytes = 1024 * 1024;

bool use_cma(Transfer transfer, std::size_t bytes, std::size_t runs, bool replace) {
  switch (transfer) {
    case Transfer::segment: return false;
    case Transfer::cma: return bytes > 0;
    case Transfer::automatic:
      return bytes >= cma_min_bytes && bytes >= cma_min_run_bytes * runs && (replace || bytes <= cma_max_combined_bytes);
  }
  return false;
}

}  // namespace gwpetsc
