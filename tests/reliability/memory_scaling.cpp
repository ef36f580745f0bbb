// SPDX-License-Identifier: BSD-3-Clause
// Per-rank memory of ghostwire's runtime and plans at a fixed amount of work per rank (weak
// scaling), added by creating the World, a 2-D Grid (32 x 32 cells per rank) with its HaloUpdate
// and a raw plan with every rank's four grid neighbours on two channels:
//   - ghostwire's own heap: this program replaces operator new and delete with counting ones.
//     ghostwire is C++ and allocates through them; the MPI libraries are C and use malloc, so the
//     count is ghostwire's (and the C++ library's) memory alone.
//   - the whole heap (mallinfo2: also what MPI allocates for ghostwire's windows, communicators
//     and endpoints) and resident memory (VmRSS, also shared windows and MPI's own segments). tests/reliability/memory_scaling.sh runs it at 16 and 64 ranks and compares: memory
// that grows with the job's size instead of with neighbours x channels shows as a difference.
//
//   memory_scaling          prints one line with the maximum and mean over ranks
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>

#include "ghostwire/dist.hpp"
#include "ghostwire/plan.hpp"
#include "probe.hpp"

namespace gw = ghostwire;

namespace {
std::atomic<long> cxx_heap_bytes{0};

void* counted(void* block) {
  if (!block) throw std::bad_alloc();
  cxx_heap_bytes += static_cast<long>(malloc_usable_size(block));
  return block;
}
void uncount(void* block) noexcept {
  if (!block) return;
  cxx_heap_bytes -= static_cast<long>(malloc_usable_size(block));
  std::free(block);
}
std::size_t round_to(std::size_t bytes, std::align_val_t alignment) {
  const auto a = static_cast<std::size_t>(alignment);
  return (bytes + a - 1) / a * a;
}
}  // namespace

void* operator new(std::size_t bytes) { return counted(std::malloc(bytes ? bytes : 1)); }
void* operator new[](std::size_t bytes) { return counted(std::malloc(bytes ? bytes : 1)); }
void* operator new(std::size_t bytes, std::align_val_t a) {
  return counted(std::aligned_alloc(static_cast<std::size_t>(a), round_to(bytes ? bytes : 1, a)));
}
void* operator new[](std::size_t bytes, std::align_val_t a) {
  return counted(std::aligned_alloc(static_cast<std::size_t>(a), round_to(bytes ? bytes : 1, a)));
}
void operator delete(void* block) noexcept { uncount(block); }
void operator delete[](void* block) noexcept { uncount(block); }
void operator delete(void* block, std::size_t) noexcept { uncount(block); }
void operator delete[](void* block, std::size_t) noexcept { uncount(block); }
void operator delete(void* block, std::align_val_t) noexcept { uncount(block); }
void operator delete[](void* block, std::align_val_t) noexcept { uncount(block); }
void operator delete(void* block, std::size_t, std::align_val_t) noexcept { uncount(block); }
void operator delete[](void* block, std::size_t, std::align_val_t) noexcept { uncount(block); }

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Barrier(MPI_COMM_WORLD);
  const long heap_before = gwreliab::heap_bytes(), rss_before = gwreliab::status_kib("VmRSS");
  const long cxx_before = cxx_heap_bytes.load();
  long heap_after = 0, rss_after = 0, cxx_after = 0, neighbours = 0;
  {
    gw::World world;
    const gw::Point<2> extents{32 * 4, 32 * static_cast<gw::Index>(size) / 4};  // size divisible by 4
    gw::Grid<double, 2> grid(world, extents, gw::Halo<2>(1, gw::Stencil::faces, gw::Boundary::periodic));
    gw::HaloUpdate update({&grid});
    update.run();
    // A raw plan over the same neighbours: two channels, 32 values each way.
    std::vector<int> ranks = update.plan().neighbours();
    neighbours = static_cast<long>(ranks.size());
    gw::Segment values(world, 32 * sizeof(double));
    std::vector<double> ghosts(32 * 2 * ranks.size());
    gw::Plan plan(world, ranks, 2);
    gw::Region out = plan.add_memory(values, sizeof(double));
    gw::Region in = plan.add_memory(ghosts.data(), ghosts.size() * sizeof(double), sizeof(double));
    for (std::size_t n = 0; n < ranks.size(); ++n)
      for (std::size_t c = 0; c < 2; ++c) {
        plan.add_send(c, ranks[n], out, gw::Layout::contiguous(0, 32));
        plan.add_receive(c, ranks[n], in, gw::Layout::contiguous(static_cast<std::ptrdiff_t>((2 * n + c) * 32), 32));
      }
    plan.commit();
    plan.exchange();
    world.barrier();
    heap_after = gwreliab::heap_bytes();
    cxx_after = cxx_heap_bytes.load();
    rss_after = gwreliab::status_kib("VmRSS");
    world.barrier();
  }
  constexpr int fields = 4;
  long mine[fields] = {cxx_after - cxx_before, heap_after - heap_before, rss_after - rss_before, neighbours};
  std::vector<long> all(fields * static_cast<std::size_t>(size));
  MPI_Gather(mine, fields, MPI_LONG, all.data(), fields, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    long max[fields] = {};
    double mean[fields] = {};
    for (int r = 0; r < size; ++r)
      for (int f = 0; f < fields; ++f) {
        max[f] = std::max(max[f], all[static_cast<std::size_t>(fields * r + f)]);
        mean[f] += static_cast<double>(all[static_cast<std::size_t>(fields * r + f)]) / size;
      }
    std::printf("memory_scaling: ranks %d, neighbours <= %ld, channels 2: ghostwire heap per rank max %ld mean %.0f "
                "bytes; whole heap (with MPI's) max %ld mean %.0f bytes; VmRSS delta max %ld mean %.0f KiB\n",
                size, max[3], max[0], mean[0], max[1], mean[1], max[2], mean[2]);
  }
  MPI_Finalize();
  return 0;
}
