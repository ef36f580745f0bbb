// SPDX-License-Identifier: BSD-3-Clause
// ga: Global Arrays (Debian's libglobalarrays-dev on ARMCI-MPI) as a GA user writes a halo
// exchange: a global array with ghost cells, created with the case's block decomposition
// (NGA_Create_ghosts_irreg), this rank's block with its ghosts accessed in place
// (NGA_Access_ghosts) as the array the benchmark writes and checks, and GA_Update_ghosts as the
// exchange. GA_Update_ghosts is periodic and fills corners: it also fills the ghost cells on the
// domain's boundary (and a faces-only case's corners), which this case leaves alone; it is
// measured as GA offers it (docs/benchmarks-howto.md, gw-bench halo). Grid cases only.
#include <ga.h>
#include <mpi.h>
#include <macdecls.h>

#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "exchanger.hpp"

namespace gwbench::halo {
namespace {

// GA's memory allocator's stack and heap, in doubles: GA_Update_ghosts takes its buffers there.
constexpr long ga_memory_doubles = 8L << 20;

void start_ga() {
  static bool started = false;
  if (started) return;
  GA_Initialize();
  if (!MA_init(C_DBL, ga_memory_doubles, ga_memory_doubles))
    throw std::runtime_error("Global Arrays: MA_init could not allocate its memory");
  started = true;
}

// Block starts along one axis, as grid_case.cpp splits it.
std::vector<int> block_starts(int size, int procs) {
  std::vector<int> starts;
  int base = size / procs, extra = size % procs;
  for (int c = 0; c < procs; ++c) starts.push_back(c * base + std::min(c, extra));
  return starts;
}

class GaExchanger final : public Exchanger {
 public:
  explicit GaExchanger(const ExchangerSetup& setup) {
    const GridShape& grid = setup.halo_case.grid;
    if (grid.dimensions == 0) throw std::logic_error("ga runs on grid cases only");
    start_ga();
    const int n = grid.dimensions;
    // GA's C interface is row-major, its last dimension the fastest: dimension i is the case's
    // axis n - 1 - i (x last), and GA numbers blocks with the last dimension fastest, as the case
    // numbers ranks with x fastest.
    std::array<int, 3> dims{}, width{}, nblock{};
    std::vector<int> map;
    for (int i = 0; i < n; ++i) {
      int axis = n - 1 - i;
      dims[i] = grid.size;
      width[i] = grid.halo;
      nblock[i] = grid.procs[axis];
      for (int start : block_starts(grid.size, grid.procs[axis])) map.push_back(start);
    }
    char name[] = "gw-bench halo";
    handle_ = NGA_Create_ghosts_irreg(C_DBL, n, dims.data(), width.data(), name, nblock.data(), map.data());
    if (!handle_) throw std::runtime_error("Global Arrays: NGA_Create_ghosts_irreg failed");
    std::array<int, 3> local{}, ld{};
    NGA_Access_ghosts(handle_, local.data(), &field_, ld.data());
    check_layout(setup.halo_case, local, ld);
  }
  ~GaExchanger() override {
    NGA_Release_ghosts(handle_);
    GA_Destroy(handle_);
  }

  double* field() override { return field_; }
  void exchange() override { GA_Update_ghosts(handle_); }
  bool fills_every_ghost() const override { return true; }

 private:
  // GA's block of this rank must be the case's (its place in the grid and, with its ghosts, its
  // array element for element), or the checks would fail for reasons of layout alone.
  void check_layout(const HaloCase& c, const std::array<int, 3>& local, const std::array<int, 3>& ld) const {
    const GridShape& grid = c.grid;
    const int n = grid.dimensions, me = GA_Nodeid();
    int rank = 0;  // the case's blocks go by MPI rank
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const std::array<int, 3> coords{rank % grid.procs[0], rank / grid.procs[0] % grid.procs[1],
                                    rank / (grid.procs[0] * grid.procs[1])};
    std::array<int, 3> lo{}, hi{};
    NGA_Distribution(handle_, me, lo.data(), hi.data());
    bool same = true;
    for (int i = 0; i < n; ++i) {
      int axis = n - 1 - i;
      std::vector<int> starts = block_starts(grid.size, grid.procs[axis]);
      int end = coords[axis] + 1 < grid.procs[axis] ? starts[coords[axis] + 1] : grid.size;
      same = same && lo[i] == starts[coords[axis]] && hi[i] == end - 1 && local[i] == end - lo[i] + 2 * grid.halo;
      if (i + 1 < n) same = same && ld[i] == local[i + 1];
    }
    if (!same)
      throw std::runtime_error("Global Arrays gave MPI rank " + std::to_string(rank) + " (GA_Nodeid " +
                               std::to_string(me) + ") another block than the case's decomposition");
  }

  int handle_ = 0;
  double* field_ = nullptr;
};

}  // namespace

std::unique_ptr<Exchanger> make_ga_exchanger(const ExchangerSetup& setup) { return std::make_unique<GaExchanger>(setup); }

void end_ga_session() {
  if (GA_Initialized()) GA_Terminate();
}

}  // namespace gwbench::halo
