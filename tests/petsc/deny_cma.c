/* SPDX-License-Identifier: BSD-3-Clause */
/* Preloaded (LD_PRELOAD) into a test's ranks: process_vm_readv fails with EPERM, as where ptrace is
   not allowed between the ranks, so that the fast path's probe at SetUp fails: auto must fall back
   to the segment, a forced cma must stop with an error naming the cause. */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/uio.h>

ssize_t process_vm_readv(pid_t pid, const struct iovec *local, unsigned long nlocal, const struct iovec *remote,
                         unsigned long nremote, unsigned long flags)
{
  (void)pid;
  (void)local;
  (void)nlocal;
  (void)remote;
  (void)nremote;
  (void)flags;
  errno = EPERM;
  return -1;
}
