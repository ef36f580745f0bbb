// SPDX-License-Identifier: BSD-3-Clause
// Quick start, ghostwire owns the arrays: the Jacobi program of examples/porting/mpi_jacobi.cpp on
// two ghostwire Grids. The grid decomposes itself, stores each rank's block with its ghost cells
// and knows its halo, so there is no exchange code at all: update_halo() fills the ghost cells.
// Prints the MPI program's checksum on any number of ranks (docs/porting.md).
//
//   scripts/launch -n 2 -- build/examples/quickstart_grid
#include <cstdio>
#include <span>
#include <utility>

#include "ghostwire/ghostwire.hpp"

namespace gw = ghostwire;

constexpr gw::Index NX = 48, NY = 32;
constexpr int STEPS = 20;

// Local coordinates (y, x): owned cells from 0, ghost cells at -1 and at the local extent.
void jacobi_sweep(const gw::Grid<double, 2>& u, gw::Grid<double, 2>& unew) {
  for (gw::Index y = 0; y < u.local_extent(0); ++y)
    for (gw::Index x = 0; x < u.local_extent(1); ++x)
      unew(y, x) = 0.25 * (u(y, x - 1) + u(y, x + 1) + u(y - 1, x) + u(y + 1, x));
}

// Sum over all cells of (1 + x + NX * y) * u, on every rank.
double checksum(gw::Grid<double, 2>& u) {
  double sum = 0;
  gw::for_each_local(u, [&](const gw::Point<2>& g, double& v) { sum += (1.0 + g[1] + NX * g[0]) * v; });
  gw::allreduce(u.world(), std::span(&sum, 1), gw::ReduceOp::sum);
  return sum;
}

int main() {
  gw::World world;  // MPI_COMM_WORLD; initialises and finalises MPI
  {
    gw::Halo<2> halo(1);              // one ghost cell on every side
    halo.periodic = {false, true};    // y: walls (ghost cells there stay 0), x: periodic
    gw::Grid<double, 2> u(world, {NY, NX}, halo), unew(world, {NY, NX}, halo);
    gw::for_each_local(u, [](const gw::Point<2>& g, double& v) { v = ((7 * g[1] + 13 * g[0]) % 17) / 16.0; });
    for (int step = 0; step < STEPS; ++step) {
      u.update_halo();  // u's ghost cells now hold the neighbours' edge cells
      jacobi_sweep(u, unew);
      std::swap(u, unew);  // each grid keeps its storage and its halo
    }
    const double sum = checksum(u);
    if (world.rank() == 0)
      std::printf("quickstart_grid: %ld x %ld, %d steps, %d ranks (team %d x %d)\nchecksum %.6f\n", long(NX), long(NY),
                  STEPS, world.size(), u.pattern().team().extent(0), u.pattern().team().extent(1), sum);
  }  // grids are freed here, collectively, before the world
  return 0;
}
