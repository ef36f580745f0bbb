// SPDX-License-Identifier: BSD-3-Clause
// Soak: many exchanges of one plan, with resident memory measured after a warm-up and at the end.
// VmRSS growth above --limit-kib fails, and so does heap growth above --heap-limit-bytes (glibc's
// count of bytes in use: a leak of 1 byte every 16 exchanges shows over 10^6).
//
//   soak --kind grid|unstructured [--exchanges N] [--warmup W] [--check-every C] [--limit-kib L]
//        [--heap-limit-bytes B]
//
// grid: a periodic 2-D Grid (16 x 16 cells per rank) updated by a HaloUpdate; every C-th round
// checks every face ghost. unstructured: a ring-like ghost map through make_unstructured_plan,
// checked the same way.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ghostwire/dist.hpp"
#include "ghostwire/plan.hpp"
#include "grid_check.hpp"
#include "probe.hpp"

namespace gw = ghostwire;

namespace {

struct Options {
  std::string kind = "grid";
  long exchanges = 1000000, warmup = 10000, check_every = 1000, limit_kib = 1024, heap_limit_bytes = 65536;
};

struct Memory {
  long rss_kib, hwm_kib, heap;
};

Memory measure() { return {gwreliab::status_kib("VmRSS"), gwreliab::status_kib("VmHWM"), gwreliab::heap_bytes()}; }

// Runs `exchange(round)` for rounds [0, exchanges), measuring after the warm-up; returns the
// number of wrong values `exchange` reported.
template <class Exchange>
long run(gw::World& world, const Options& o, Exchange&& exchange, Memory& warm, Memory& end) {
  long wrong = 0;
  for (long round = 0; round < o.exchanges; ++round) {
    if (round == o.warmup) warm = measure();
    wrong += exchange(round, round % o.check_every == 0 || round == o.exchanges - 1);
  }
  world.barrier();
  end = measure();
  return wrong;
}

long soak_grid(gw::World& world, const Options& o, Memory& warm, Memory& end) {
  const gw::Point<2> extents{16, 16 * world.size()};
  gw::Grid<double, 2> grid(world, extents, gw::Halo<2>(1, gw::Stencil::faces, gw::Boundary::periodic));
  gw::HaloUpdate update({&grid});
  return run(world, o, [&](long round, bool check) {
    if (check) gwreliab::fill_owned(grid, extents, round);
    update.run();
    return check ? gwreliab::wrong_ghosts(grid, extents, round) : 0L;
  }, warm, end);
}

// Each rank owns `owned_count` values and ghosts every third value of both ring neighbours.
long soak_unstructured(gw::World& world, const Options& o, Memory& warm, Memory& end) {
  const int rank = world.rank(), size = world.size();
  const std::size_t owned_count = 96;
  gw::Segment owned(world, owned_count * sizeof(double));
  gw::GhostMap map;
  for (int side : {size - 1, 1}) {
    const int owner = (rank + side) % size;
    for (std::size_t i = 0; i < owned_count; i += 3) {
      map.owner.push_back(owner);
      map.index.push_back(i);
    }
  }
  std::vector<double> ghosts(map.owner.size());
  gw::Plan plan = gw::make_unstructured_plan(world, owned, 0, owned_count, ghosts.data(), map, sizeof(double));
  double* values = reinterpret_cast<double*>(owned.data());
  auto value = [](int owner, std::size_t index, long round) {
    return owner * 1e9 + static_cast<double>(index) * 1e5 + static_cast<double>(round);
  };
  return run(world, o, [&](long round, bool check) {
    if (check)
      for (std::size_t i = 0; i < owned_count; ++i) values[i] = value(rank, i, round);
    plan.exchange();
    long wrong = 0;
    if (check)
      for (std::size_t g = 0; g < ghosts.size(); ++g)
        if (ghosts[g] != value(map.owner[g], map.index[g], round)) ++wrong;
    return wrong;
  }, warm, end);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string name = argv[i];
    if (name == "--kind") { o.kind = argv[i + 1]; continue; }
    long value = std::strtol(argv[i + 1], nullptr, 10);
    if (name == "--exchanges") o.exchanges = value;
    else if (name == "--warmup") o.warmup = value;
    else if (name == "--check-every") o.check_every = value;
    else if (name == "--limit-kib") o.limit_kib = value;
    else if (name == "--heap-limit-bytes") o.heap_limit_bytes = value;
    else { std::fprintf(stderr, "soak: unknown option %s\n", name.c_str()); return 2; }
  }
  if ((o.kind != "grid" && o.kind != "unstructured") || o.warmup >= o.exchanges || o.check_every < 1) {
    std::fprintf(stderr, "soak: --kind grid|unstructured, --warmup < --exchanges, --check-every >= 1\n");
    return 2;
  }
  int failed = 0;
  {
    gw::World world;
    Memory warm{}, end{};
    double t0 = MPI_Wtime();
    long wrong = o.kind == "grid" ? soak_grid(world, o, warm, end) : soak_unstructured(world, o, warm, end);
    double seconds = MPI_Wtime() - t0;
    long growth = end.rss_kib - warm.rss_kib;
    std::printf("soak %s: rank %d: %ld exchanges in %.1f s; VmRSS %ld KiB after %ld (warm-up), %ld KiB at the end "
                "(growth %ld KiB, limit %ld); VmHWM %ld -> %ld KiB; heap %ld -> %ld bytes (limit +%ld); wrong values %ld\n",
                o.kind.c_str(), world.rank(), o.exchanges, seconds, warm.rss_kib, o.warmup, end.rss_kib, growth,
                o.limit_kib, warm.hwm_kib, end.hwm_kib, warm.heap, end.heap, o.heap_limit_bytes, wrong);
    std::fflush(stdout);
    failed = wrong != 0 || growth > o.limit_kib || end.heap > warm.heap + o.heap_limit_bytes;
    int any = 0;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, world.comm());
    if (world.rank() == 0) std::printf(any ? "soak: FAILED\n" : "soak: memory bounded, every value right\n");
    failed = any;
  }
  MPI_Finalize();
  return failed;
}
