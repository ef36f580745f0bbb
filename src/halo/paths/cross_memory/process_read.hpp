// SPDX-License-Identifier: BSD-3-Clause
// Linux cross-memory attach (process_vm_readv): a node peer's private memory read into mine, one
// copy, the peer's runs gathered and mine scattered in one stream of bytes.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ghostwire::detail {

struct MemoryRun {
  std::uintptr_t address = 0;
  std::size_t bytes = 0;
};

// Reads the peer's runs, in order, into mine, in order (both hold the same number of bytes).
// Errc::internal naming the peer and the cause if the kernel refuses.
void read_process(pid_t pid, int rank, const std::vector<MemoryRun>& theirs, const std::vector<MemoryRun>& mine);

// A word of this process that peers read at commit to check that cross-memory attach works.
std::uintptr_t probe_address();
// Whether reading the peer's probe word works; if not, `why` says why.
bool probe_process(pid_t pid, int rank, std::uintptr_t address, std::string& why);

}  // namespace ghostwire::detail
