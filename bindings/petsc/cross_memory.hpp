// SPDX-License-Identifier: BSD-3-Clause
// Linux cross-memory attach: reading a node peer's private memory with process_vm_readv, one copy
// from its array into mine (docs/petsc.md, "One copy or two").
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "index_runs.hpp"

namespace gwpetsc {

// Reads every run's units of `unit_bytes` from the peer's array at `remote` (run.from) into mine at
// `local` (run.to), in run order. Calls process_vm_readv as often as IOV_MAX and partial reads
// require; throws std::runtime_error naming the peer and the cause (EPERM: ptrace not allowed ...).
void read_runs(pid_t pid, int rank, std::uintptr_t remote, void* local, const std::vector<Run>& runs,
               std::size_t unit_bytes);

// A word of this process that peers read at setup to check that cross-memory attach works.
std::uintptr_t probe_address();
// Whether reading the peer's probe word works; if not, `why` says why.
bool probe(pid_t pid, int rank, std::uintptr_t address, std::string* why);

}  // namespace gwpetsc
