// SPDX-License-Identifier: BSD-3-Clause
// 3-D heat equation with a 7-point stencil: explicit Jacobi steps on a periodic n^3 grid with a
// halo of 1 (faces only), a hot cube in a cold box. Prints the energy before and after (equal up to
// rounding), a checksum (the sum of squares) and the time per step. examples/python/stencil3d.py
// computes the same in numpy and prints the same checksum.
//
//   scripts/launch -n 4 -- build/examples/stencil3d [n=64] [steps=20]
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "ghostwire/dist.hpp"

namespace gw = ghostwire;

constexpr double dt = 0.1;  // stable for dt <= 1/6 with unit spacing

// v = u + dt * laplace(u) on the cells of `box`, the terms added in a fixed order (the Python
// example adds them in the same order, so the bits agree).
static void step(const gw::Grid<double, 3>& u, gw::Grid<double, 3>& v, const gw::Box<3>& box) {
  const gw::Point<3> h = box.high();
  for (gw::Index i = box.low[0]; i < h[0]; ++i)
    for (gw::Index j = box.low[1]; j < h[1]; ++j)
      for (gw::Index k = box.low[2]; k < h[2]; ++k) {
        const double c = u(i, j, k);
        v(i, j, k) = c + dt * (u(i - 1, j, k) + u(i + 1, j, k) + u(i, j - 1, k) + u(i, j + 1, k) + u(i, j, k - 1) +
                               u(i, j, k + 1) - 6 * c);
      }
}

int main(int argc, char** argv) {
  const gw::Index n = argc > 1 ? std::atol(argv[1]) : 64;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 20;
  gw::World world;
  {
    const gw::Halo<3> halo(1, gw::Stencil::faces, gw::Boundary::periodic);
    gw::Grid<double, 3> u(world, {n, n, n}, halo), v(world, {n, n, n}, halo);
    gw::for_each_local(u, [&](const gw::Point<3>& g, double& x) {
      bool inside = true;
      for (int d = 0; d < 3; ++d) inside = inside && g[d] >= n / 4 && g[d] < n / 2;
      x = inside ? 1.0 : 0.0;
    });
    const double energy_before = gw::reduce(u, gw::ReduceOp::sum);

    const gw::Box<3> owned = u.local_box();
    gw::barrier(world);
    const double start = MPI_Wtime();
    for (int s = 0; s < steps; ++s) {
      gw::HaloHandle update = u.update_halo_async();
      step(u, v, owned.shrink(1));
      update.wait();
      for (const gw::Box<3>& rim : owned.rim(1)) step(u, v, rim);
      std::swap(u, v);
    }
    gw::barrier(world);
    const double seconds = MPI_Wtime() - start;

    const double energy_after = gw::reduce(u, gw::ReduceOp::sum);
    gw::transform(u, v, [](double x) { return x * x; });
    const double checksum = gw::reduce(v, gw::ReduceOp::sum);
    if (world.rank() == 0) {
      const auto& team = u.pattern().team();
      std::printf("stencil3d: %ld^3, %d steps, %d ranks (team %d x %d x %d)\n", static_cast<long>(n), steps,
                  world.size(), team.extent(0), team.extent(1), team.extent(2));
      std::printf("energy before %.17g after %.17g\n", energy_before, energy_after);
      std::printf("checksum %.17g\n", checksum);
      std::printf("time %.6f s, %.3f ms per step\n", seconds, 1e3 * seconds / steps);
    }
  }
  return 0;
}
