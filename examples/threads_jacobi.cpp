// SPDX-License-Identifier: BSD-3-Clause
// heat_jacobi with threads inside each rank (hybrid MPI + OpenMP): every thread computes its rows of
// the block and takes its share of the halo update (Grid::update_halo_shared), so no thread waits
// for one master to exchange. Jacobi computes every cell from the old grid only, so the result is
// heat_jacobi's to the bit at any ranks x threads; the checksum says so.
//
//   scripts/launch -n 2 --threads 2 -- build/examples/threads_jacobi [n=1024] [steps=100]
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "ghostwire/dist.hpp"

namespace gw = ghostwire;

constexpr double dt = 0.2;

static void update_row(const double* above, const double* row, const double* below, double* out, gw::Index j0,
                       gw::Index j1) {
  for (gw::Index j = j0; j < j1; ++j) out[j] = row[j] + dt * (above[j] + below[j] + row[j - 1] + row[j + 1] - 4 * row[j]);
}

// This thread's rows of the block: rows t, t + threads, ... would share cache lines between
// threads at the block's edges; contiguous bands do not.
static void step_band(const gw::Grid<double, 2>& u, gw::Grid<double, 2>& v, int thread, int threads) {
  const gw::Index rows = u.local_extents()[0], columns = u.local_extents()[1];
  const gw::Index first = rows * thread / threads, last = rows * (thread + 1) / threads;
  for (gw::Index i = first; i < last; ++i) update_row(&u(i - 1, 0), &u(i, 0), &u(i + 1, 0), &v(i, 0), 0, columns);
}

int main(int argc, char** argv) {
  const gw::Index n = argc > 1 ? std::atol(argv[1]) : 1024;
  const int steps = argc > 2 ? std::atoi(argv[2]) : 100;
  gw::Settings settings = gw::Settings::from_environment();
  settings.thread_level = gw::ThreadLevel::multiple;  // threads' shares may go between nodes
  gw::World world(MPI_COMM_WORLD, settings);
  {
    const gw::Halo<2> halo(1, gw::Stencil::faces, gw::Boundary::periodic);
    gw::Grid<double, 2> u(world, {n, n}, halo), v(world, {n, n}, halo);
    gw::for_each_local(u, [&](const gw::Point<2>& g, double& x) {
      x = g[0] >= n / 4 && g[0] < n / 2 && g[1] >= n / 4 && g[1] < n / 2 ? 1.0 : 0.0;
    });
    gw::barrier(world);
    const double start = MPI_Wtime();
    int team = 1;
#pragma omp parallel
    {
      const int thread = omp_get_thread_num(), threads = omp_get_num_threads();
      if (thread == 0) team = threads;  // read after the region, whose end orders it
      gw::Grid<double, 2>* now = &u;
      gw::Grid<double, 2>* next = &v;
      for (int s = 0; s < steps; ++s) {
        now->update_halo_shared(static_cast<std::size_t>(thread), static_cast<std::size_t>(threads));
        step_band(*now, *next, thread, threads);
#pragma omp barrier
        std::swap(now, next);
      }
    }
    gw::barrier(world);
    const double seconds = MPI_Wtime() - start;
    gw::Grid<double, 2>& result = steps % 2 ? v : u;
    gw::Grid<double, 2>& squares = steps % 2 ? u : v;
    gw::transform(result, squares, [](double x) { return x * x; });
    const double checksum = gw::reduce(squares, gw::ReduceOp::sum);
    if (world.rank() == 0) {
      std::printf("threads_jacobi: %ld x %ld, %d steps, %d ranks x %d threads, MPI thread level %s\n",
                  static_cast<long>(n), static_cast<long>(n), steps, world.size(), team,
                  gw::thread_level_name(world.thread_level()));
      std::printf("checksum %.17g\n", checksum);
      std::printf("time %.6f s, %.3f ms per step\n", seconds, 1e3 * seconds / steps);
      std::printf("{\"example\":\"threads_jacobi\",\"n\":%ld,\"steps\":%d,\"ranks\":%d,\"threads\":%d,\"time_s\":%.6g,"
                  "\"checksum\":%.17g}\n",
                  static_cast<long>(n), steps, world.size(), team, seconds, checksum);
    }
  }
  return 0;
}
