// SPDX-License-Identifier: BSD-3-Clause
// 2-D heat equation, explicit Jacobi steps on a periodic n x n grid with a halo of 1: the shape of
// DASH's halo heat example (two grids, an asynchronous halo update overlapped with the inner
// cells, then the boundary cells, then swap). Prints the energy before and after (equal up to
// rounding: periodic diffusion conserves it), a checksum and the time per step.
//
//   scripts/launch -n 4 -- build/examples/heat_jacobi [n=1024] [steps=100]
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "ghostwire/dist.hpp"

namespace gw = ghostwire;

constexpr double dt = 0.2;  // stable for dt <= 0.25 with dx = dy = 1

// Cells [j0, j1) of one row: v = u + dt * laplace(u), from the rows above and below.
static void update_row(const double* above, const double* row, const double* below, double* out, gw::Index j0,
                       gw::Index j1) {
  for (gw::Index j = j0; j < j1; ++j) out[j] = row[j] + dt * (above[j] + below[j] + row[j - 1] + row[j + 1] - 4 * row[j]);
}

// One step on the cells of `box`. The rows are taken as pointers once per row and the row loop is
// a function of plain pointers: with the accessor in the inner loop the compiler cannot tell that a
// store through v(i, j) leaves the grids' own fields alone, reloads them at every cell and does not
// vectorise (measured 10% slower on 1024^2), and with the row pointers in the same loop nest it
// keeps fewer of them in registers (a row function measured 3-5% faster at 1024^2 on 2 ranks).
static void step(const gw::Grid<double, 2>& u, gw::Grid<double, 2>& v, const gw::Box<2>& box) {
  for (gw::Index i = box.low[0]; i < box.high()[0]; ++i)
    update_row(&u(i - 1, 0), &u(i, 0), &u(i + 1, 0), &v(i, 0), box.low[1], box.high()[1]);
}

int main(int argc, char** argv) {
  const gw::Index n = argc > 1 ? std::atol(argv[1]) : 1024;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 100;
  gw::World world;
  {
    const gw::Halo<2> halo(1, gw::Stencil::faces, gw::Boundary::periodic);
    gw::Grid<double, 2> u(world, {n, n}, halo), v(world, {n, n}, halo);

    // A hot square in the middle of a cold plate.
    gw::for_each_local(u, [&](const gw::Point<2>& g, double& x) {
      x = g[0] >= n / 4 && g[0] < n / 2 && g[1] >= n / 4 && g[1] < n / 2 ? 1.0 : 0.0;
    });
    const double energy_before = gw::reduce(u, gw::ReduceOp::sum);

    const gw::Box<2> owned = u.local_box();
    gw::barrier(world);
    const double start = MPI_Wtime();
    for (int s = 0; s < steps; ++s) {
      gw::HaloHandle update = u.update_halo_async();
      step(u, v, owned.shrink(1));  // needs no ghost cell
      update.wait();
      for (const gw::Box<2>& rim : owned.rim(1)) step(u, v, rim);
      std::swap(u, v);
    }
    gw::barrier(world);
    const double seconds = MPI_Wtime() - start;

    const double energy_after = gw::reduce(u, gw::ReduceOp::sum);
    gw::Grid<double, 2>& squares = v;  // reuse the other grid
    gw::transform(u, squares, [](double x) { return x * x; });
    const double checksum = gw::reduce(squares, gw::ReduceOp::sum);
    if (world.rank() == 0) {
      std::printf("heat_jacobi: %ld x %ld, %d steps, %d ranks (team %d x %d)\n", static_cast<long>(n),
                  static_cast<long>(n), steps, world.size(), u.pattern().team().extent(0), u.pattern().team().extent(1));
      std::printf("energy before %.17g after %.17g\n", energy_before, energy_after);
      std::printf("checksum %.17g\n", checksum);
      std::printf("time %.6f s, %.3f ms per step, %.1f Mcells/s\n", seconds, 1e3 * seconds / steps,
                  static_cast<double>(n) * static_cast<double>(n) * steps / seconds / 1e6);
      std::printf("{\"example\":\"heat_jacobi\",\"n\":%ld,\"steps\":%d,\"ranks\":%d,\"time_s\":%.6g,"
                  "\"energy\":%.17g,\"checksum\":%.17g}\n",
                  static_cast<long>(n), steps, world.size(), seconds, energy_after, checksum);
    }
  }
  return 0;
}
