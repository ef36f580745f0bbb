// SPDX-License-Identifier: BSD-3-Clause
// docs/RELIABILITY.md's plain MPI program, no ghostwire in it: one window over MPI_COMM_WORLD,
// created, used once and freed. Between hosts Open MPI 4.1's one-sided UCX component may print
// "UCX ERROR ... Endpoint timeout" lines while such a program finalises, after its work is done.
//
//   scripts/launch --path multihost -n 4 -- build/examples/guides/window_teardown
//
// Each rank puts 8 values into its right neighbour's window between two fences and checks the 8 its
// left neighbour put into its own: a value lost, stale or from the wrong rank is counted as wrong.
#include <mpi.h>

#include <cstdio>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double buffer[8] = {};
  MPI_Win window;
  MPI_Win_create(buffer, sizeof buffer, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &window);
  double mine[8];
  for (int i = 0; i < 8; ++i) mine[i] = 100.0 * rank + i + 1;
  MPI_Win_fence(0, window);
  MPI_Put(mine, 8, MPI_DOUBLE, right, 0, 8, MPI_DOUBLE, window);
  MPI_Win_fence(0, window);
  int wrong = 0;
  for (int i = 0; i < 8; ++i) wrong += buffer[i] != 100.0 * left + i + 1;
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("window_teardown: %d rank(s), 8 values from the left neighbour on every rank, %d wrong\n", size, wrong);
  MPI_Win_free(&window);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return wrong == 0 ? 0 : 1;
}
