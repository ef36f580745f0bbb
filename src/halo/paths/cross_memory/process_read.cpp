// SPDX-License-Identifier: BSD-3-Clause
// Cross-memory reads (process_read.hpp). process_vm_readv takes at most IOV_MAX iovecs a side and
// may stop early (at an iovec boundary or a fault): the reads go in batches, each continued from
// where it stopped on both sides, whose runs need not line up.
#include "halo/paths/cross_memory/process_read.hpp"

#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "ghostwire/error.hpp"

namespace ghostwire::detail {
namespace {

constexpr std::uint64_t probe_magic = 0x67686f7374776972ull;  // "ghostwir"
const volatile std::uint64_t probe_word = probe_magic;

std::string failure(pid_t pid, int rank, int error) {
  std::string cause = std::strerror(error);
  if (error == EPERM)
    cause += " (ptrace access to the peer is not allowed: see /proc/sys/kernel/yama/ptrace_scope, or choose "
             "another path with GHOSTWIRE_INTRA_PATH)";
  return "process_vm_readv from rank " + std::to_string(rank) + " (pid " + std::to_string(pid) + ") failed: " + cause;
}

// A cursor over runs: the iovecs from the current position on, at most IOV_MAX of them.
struct Cursor {
  const std::vector<MemoryRun>& runs;
  std::size_t run = 0, done = 0;  // bytes of runs[run] already read
  bool finished() const { return run == runs.size(); }
  std::size_t fill(iovec* out) const {
    std::size_t n = 0;
    for (std::size_t k = run; k < runs.size() && n < IOV_MAX; ++k, ++n) {
      const std::size_t skip = k == run ? done : 0;
      out[n] = {reinterpret_cast<void*>(runs[k].address + skip), runs[k].bytes - skip};
    }
    return n;
  }
  void advance(std::size_t bytes) {
    while (bytes > 0 && run < runs.size()) {
      const std::size_t step = std::min(bytes, runs[run].bytes - done);
      done += step;
      bytes -= step;
      if (done == runs[run].bytes) ++run, done = 0;
    }
    while (run < runs.size() && runs[run].bytes == 0) ++run;
  }
};

}  // namespace

void read_process(pid_t pid, int rank, const std::vector<MemoryRun>& theirs, const std::vector<MemoryRun>& mine) {
  static thread_local iovec local[IOV_MAX], remote[IOV_MAX];
  Cursor from{theirs}, to{mine};
  from.advance(0);
  to.advance(0);
  while (!from.finished() && !to.finished()) {
    const std::size_t n_remote = from.fill(remote), n_local = to.fill(local);
    const ssize_t got = process_vm_readv(pid, local, n_local, remote, n_remote, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) raise(Errc::internal, failure(pid, rank, errno));
    if (got == 0) raise(Errc::internal, failure(pid, rank, EFAULT) + " (no progress)");
    from.advance(static_cast<std::size_t>(got));
    to.advance(static_cast<std::size_t>(got));
  }
}

std::uintptr_t probe_address() { return reinterpret_cast<std::uintptr_t>(&probe_word); }

bool probe_process(pid_t pid, int rank, std::uintptr_t address, std::string& why) {
  std::uint64_t word = 0;
  iovec mine{&word, sizeof word}, theirs{reinterpret_cast<void*>(address), sizeof word};
  const ssize_t got = process_vm_readv(pid, &mine, 1, &theirs, 1, 0);
  if (got == static_cast<ssize_t>(sizeof word) && word == probe_magic) return true;
  why = got < 0 ? failure(pid, rank, errno) : "process_vm_readv read a wrong probe word from rank " + std::to_string(rank);
  return false;
}

}  // namespace ghostwire::detail
