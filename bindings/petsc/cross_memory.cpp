// SPDX-License-Identifier: BSD-3-Clause
#include "cross_memory.hpp"

#include <sys/uio.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <stdexcept>

namespace gwpetsc {
namespace {

constexpr std::uint64_t probe_magic = 0x67686f7374776972ull;  // "ghostwir"
const volatile std::uint64_t probe_word = probe_magic;

constexpr std::size_t batch = IOV_MAX;  // iovecs per call (1024 on Linux)

std::string failure(pid_t pid, int rank, int error) {
  std::string cause = std::strerror(error);
  if (error == EPERM)
    cause += " (ptrace access to the peer is not allowed: see /proc/sys/kernel/yama/ptrace_scope, or use "
             "-sf_ghostwire_transfer segment)";
  return "process_vm_readv from rank " + std::to_string(rank) + " (pid " + std::to_string(pid) + ") failed: " + cause;
}

// One batch of matching local and remote iovecs, read completely: a partial read (the kernel
// stops at an iovec boundary or a fault) is continued from where it stopped.
void read_batch(pid_t pid, int rank, iovec* local, iovec* remote, std::size_t n) {
  while (n > 0) {
    ssize_t got = process_vm_readv(pid, local, n, remote, n, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw std::runtime_error(failure(pid, rank, errno));
    if (got == 0) throw std::runtime_error(failure(pid, rank, EFAULT) + " (no progress)");
    auto left = static_cast<std::size_t>(got);
    while (n > 0 && left >= local->iov_len) {  // whole pieces done
      left -= local->iov_len;
      ++local, ++remote, --n;
    }
    if (n > 0 && left > 0) {  // a piece read in part
      local->iov_base = static_cast<char*>(local->iov_base) + left;
      remote->iov_base = static_cast<char*>(remote->iov_base) + left;
      local->iov_len -= left;
      remote->iov_len -= left;
    }
  }
}

}  // namespace

void read_runs(pid_t pid, int rank, std::uintptr_t remote, void* local, const std::vector<Run>& runs,
               std::size_t unit_bytes) {
  iovec mine[batch], theirs[batch];
  std::size_t n = 0;
  for (const Run& r : runs) {
    const std::size_t bytes = static_cast<std::size_t>(r.length) * unit_bytes;
    mine[n] = {static_cast<std::byte*>(local) + static_cast<std::size_t>(r.to) * unit_bytes, bytes};
    theirs[n] = {reinterpret_cast<void*>(remote + static_cast<std::size_t>(r.from) * unit_bytes), bytes};
    if (++n == batch) {
      read_batch(pid, rank, mine, theirs, n);
      n = 0;
    }
  }
  if (n > 0) read_batch(pid, rank, mine, theirs, n);
}

std::uintptr_t probe_address() { return reinterpret_cast<std::uintptr_t>(&probe_word); }

bool probe(pid_t pid, int rank, std::uintptr_t address, std::string* why) {
  std::uint64_t word = 0;
  iovec mine{&word, sizeof word}, theirs{reinterpret_cast<void*>(address), sizeof word};
  ssize_t got = process_vm_readv(pid, &mine, 1, &theirs, 1, 0);
  if (got == static_cast<ssize_t>(sizeof word) && word == probe_magic) return true;
  *why = got < 0 ? failure(pid, rank, errno)
                 : "process_vm_readv read a wrong probe word from rank " + std::to_string(rank);
  return false;
}

}  // namespace gwpetsc
