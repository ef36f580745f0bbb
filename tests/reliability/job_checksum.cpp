// SPDX-License-Identifier: BSD-3-Clause
// One job of several running on the machine at once (tests/reliability/concurrent_jobs.sh): a
// periodic Grid with a HaloUpdate and a raw Plan on a ring, each checked after every exchange,
// and a checksum of the final grid against its closed form. Values carry the job's --tag, so data
// from another job's shared memory would show as wrong values.
//
//   job_checksum --tag T [--rounds N]
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ghostwire/dist.hpp"
#include "ghostwire/plan.hpp"
#include "grid_check.hpp"

namespace gw = ghostwire;

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  long tag = -1, rounds = 300;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string name = argv[i];
    long value = std::strtol(argv[i + 1], nullptr, 10);
    if (name == "--tag") tag = value;
    else if (name == "--rounds") rounds = value;
    else { std::fprintf(stderr, "job_checksum: unknown option %s\n", name.c_str()); return 2; }
  }
  if (tag < 0 || rounds < 1) { std::fprintf(stderr, "job_checksum: needs --tag T >= 0 and --rounds N >= 1\n"); return 2; }
  long wrong = 0;
  double checksum = 0, expected = 0;
  int rank = 0;
  {
    gw::World world;
    rank = world.rank();
    const int size = world.size();
    const gw::Point<2> extents{20, 12 * size};
    gw::Grid<double, 2> grid(world, extents, gw::Halo<2>(1, gw::Stencil::faces, gw::Boundary::periodic));
    gw::HaloUpdate update({&grid});

    // A ring of single values in a Segment, one channel per direction.
    gw::Segment ring(world, 3 * sizeof(double));
    double* cell = reinterpret_cast<double*>(ring.data());  // [0] mine, [1] from the left, [2] from the right
    const int left = (rank + size - 1) % size, right = (rank + 1) % size;
    std::vector<int> neighbours{left};
    if (right != left) neighbours.push_back(right);  // two ranks: one neighbour, both channels
    gw::Plan plan(world, neighbours, 2);
    gw::Region r = plan.add_memory(ring, sizeof(double));
    plan.add_send(0, right, r, gw::Layout::contiguous(0, 1));
    plan.add_receive(0, left, r, gw::Layout::contiguous(1, 1));
    plan.add_send(1, left, r, gw::Layout::contiguous(0, 1));
    plan.add_receive(1, right, r, gw::Layout::contiguous(2, 1));
    plan.commit();

    const long offset = tag * 1000000;  // every job's rounds are distinct values
    for (long round = 0; round < rounds; ++round) {
      gwreliab::fill_owned(grid, extents, offset + round);
      update.run();
      wrong += gwreliab::wrong_ghosts(grid, extents, offset + round);
      cell[0] = static_cast<double>(offset + round) * 1000 + rank;
      plan.exchange();
      if (cell[1] != static_cast<double>(offset + round) * 1000 + left) ++wrong;
      if (cell[2] != static_cast<double>(offset + round) * 1000 + right) ++wrong;
    }
    checksum = gw::reduce(grid, gw::ReduceOp::sum);
    const double cells = static_cast<double>(extents[0] * extents[1]);
    expected = cells * (cells - 1) / 2 + cells * cells * static_cast<double>(offset + rounds - 1);
    long all_wrong = 0;
    MPI_Allreduce(&wrong, &all_wrong, 1, MPI_LONG, MPI_SUM, world.comm());
    wrong = all_wrong;
  }
  const bool ok = wrong == 0 && checksum == expected;
  if (rank == 0)
    std::printf("job_checksum tag %ld: %ld rounds, wrong values %ld, checksum %.17g expected %.17g: %s\n", tag, rounds,
                wrong, checksum, expected, ok ? "ok" : "FAILED");
  MPI_Finalize();
  return ok ? 0 : 1;
}
