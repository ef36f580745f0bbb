// SPDX-License-Identifier: BSD-3-Clause
#include "copy_study.hpp"

#include <sched.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>

#include "cache_flush.hpp"

namespace copybench {
namespace {

// The waiting ranks give their core away: with other jobs on the machine (or more ranks than
// cores) a spinning barrier would slow the rank that measures.
void yielding_barrier(MPI_Comm comm) {
  MPI_Request request;
  MPI_Ibarrier(comm, &request);
  for (int done = 0; !done;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (!done) sched_yield();
  }
}

// Poison, copy, compare every element with its global index: a misplaced, missing or stale element
// fails. Returns the number of wrong elements (and reports the first).
// memcpy reads this rank's own block at the same offset: its values start at `expected_first`.
long checked_copy(const CopyFn& copy, const CopyCall& call, gw::Index expected_first, const std::string& what,
                  const std::string& corrupt_impl, const std::string& impl) {
  for (std::size_t i = 0; i < call.count; ++i) call.out[i] = -1.0;
  copy(call);
  if (impl == corrupt_impl) reinterpret_cast<unsigned char*>(call.out)[call.count * sizeof(double) / 2 + 1] ^= 0x40;
  long wrong = 0;
  std::size_t first_wrong = 0;
  for (std::size_t i = 0; i < call.count; ++i)
    if (call.out[i] != static_cast<double>(expected_first + static_cast<gw::Index>(i)) && wrong++ == 0) first_wrong = i;
  if (wrong)
    std::fprintf(stderr,
                 "gw-copy-bench: verification failed: %s: %ld wrong element(s) of %zu; the first is buffer element "
                 "%zu, which should hold %ld but holds %.17g\n",
                 what.c_str(), wrong, call.count, first_wrong, static_cast<long>(expected_first) + static_cast<long>(first_wrong),
                 call.out[first_wrong]);
  return wrong;
}

// After the flush, one element of the owner's pad (a page past any copied range) is copied: the
// code, the array's and MPI's metadata are warm again, as in a program that copies from a large
// array, and only the source range (and the buffer) stays out of cache.
double timed_copy(const CopyFn& copy, const CopyCall& call, const CopyCall& warm, CacheFlush& flush) {
  flush();
  copy(warm);
  const auto start = std::chrono::steady_clock::now();
  copy(call);
  const auto stop = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(stop - start).count();
}

}  // namespace

int source_owner(const gw::World& world, const std::string& source, std::string& why) {
  if (source == "local") return 0;
  const bool want_peer = source == "peer";
  for (int r = 1; r < world.size(); ++r)
    if ((world.node_of(r) == world.node_of(0)) == want_peer) return r;
  why = want_peer ? "rank 0 has no node peer in this job (launch 2 ranks on one node)"
                  : "this job has one node (launch on 2 nodes, or emulated: scripts/launch --path emulated --rpn 1)";
  return -1;
}

StudyOutcome run_study(const Options& o, gw::World& world, CopySources& sources) {
  StudyOutcome outcome;
  const bool reader = world.rank() == 0;
  // Every rank evicts its block once (the owners wrote it); then only the reader flushes.
  CacheFlush flush(o.flush_bytes);
  flush();
  yielding_barrier(world.comm());
  std::vector<CopyFn> copies;
  for (const auto& impl : o.impls) copies.push_back(make_copy(impl, sources));
  // Page-aligned, as the sources' blocks are (docs/copy-study.md, "How it works": malloc's 16-byte
  // offset put the destination 16 bytes past a page-aligned source, modulo 4 KiB, where loads alias
  // the stores just made); value-initialised, so its pages are touched.
  constexpr std::size_t page = 4096;
  const std::size_t out_bytes = o.sizes.back();
  std::vector<double> out_memory((out_bytes + page) / sizeof(double));
  void* out_start = out_memory.data();
  std::size_t out_space = out_memory.size() * sizeof(double);
  auto* out = static_cast<double*>(std::align(page, out_bytes, out_start, out_space));
  double scratch = 0;
  for (const auto& source : o.sources) {
    std::string why;
    const int owner = source_owner(world, source, why);
    if (owner < 0) {
      outcome.notes.push_back("source " + source + " skipped: " + why);
      continue;
    }
    for (std::size_t bytes : o.sizes) {
      if (reader) {
        const gw::Index block_start = static_cast<gw::Index>(owner) * sources.block;
        const CopyCall call{owner, block_start, bytes / sizeof(double), out};
        const CopyCall warm{owner, block_start + sources.block - 1, 1, &scratch};
        for (std::size_t k = 0; k < copies.size(); ++k)
          outcome.wrong_elements += checked_copy(copies[k], call, o.impls[k] == "memcpy" ? 0 : call.first,
                                                 o.impls[k] + ", source " + source + ", " + std::to_string(bytes) + " B",
                                                 o.corrupt, o.impls[k]);
        std::vector<std::vector<double>> usec(copies.size());
        for (int repeat = 0; repeat < o.repeats; ++repeat)
          for (std::size_t turn = 0; turn < copies.size(); ++turn) {
            const std::size_t k = (turn + static_cast<std::size_t>(repeat)) % copies.size();
            usec[k].push_back(timed_copy(copies[k], call, warm, flush));
          }
        for (std::size_t k = 0; k < copies.size(); ++k)
          outcome.results.push_back({source, bytes, o.impls[k], std::move(usec[k])});
      }
      yielding_barrier(world.comm());
    }
  }
  MPI_Bcast(&outcome.wrong_elements, 1, MPI_LONG, 0, world.comm());
  return outcome;
}

}  // namespace copybench
