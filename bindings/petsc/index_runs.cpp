// SPDX-License-Identifier: BSD-3-Clause
#include "index_runs.hpp"

namespace gwpetsc {

std::vector<Run> runs_of(const PetscInt* source, PetscInt source_first, const PetscInt* target, PetscInt target_first,
                         PetscInt n) {
  auto at = [](const PetscInt* list, PetscInt first, PetscInt k) { return list ? list[k] : first + k; };
  std::vector<Run> runs;
  for (PetscInt k = 0; k < n; ++k) {
    const PetscInt from = at(source, source_first, k), to = at(target, target_first, k);
    if (!runs.empty() && runs.back().from + runs.back().length == from && runs.back().to + runs.back().length == to)
      ++runs.back().length;
    else
      runs.push_back({from, to, 1});
  }
  return runs;
}

}  // namespace gwpetsc
