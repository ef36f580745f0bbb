// SPDX-License-Identifier: BSD-3-Clause
// The plain MPI program that docs/porting.md starts from: Jacobi sweeps of a 2-D field on a
// Cartesian process grid (jacobi_block.hpp: the problem, the decomposition, the sweep), ghost rows
// and columns exchanged with MPI_Isend and MPI_Irecv (rows contiguous, columns as an
// MPI_Type_vector). Every ported version (the C++ Plan and Grid quick starts, the C GW_Neighbor_*
// program, Fortran, Python, PETSc) computes the same field and prints the same checksum.
//
//   scripts/launch -n 2 -- build/examples/porting_mpi_jacobi
#include <mpi.h>

#include <cstdio>
#include <utility>
#include <vector>

#include "jacobi_block.hpp"

// The halo exchange: tags say which way a message travels, so that a neighbour that is both west
// and east (a periodic dimension of 1 or 2 ranks) gets each column in the right ghost column.
void exchange(const Block& b, std::vector<double>& u, MPI_Datatype column, MPI_Comm cart) {
  enum { to_north, to_south, to_east, to_west };
  double* a = u.data();
  MPI_Request requests[8];
  MPI_Irecv(&a[b.at(0, -1)], b.nx, MPI_DOUBLE, b.south, to_north, cart, &requests[0]);
  MPI_Irecv(&a[b.at(0, b.ny)], b.nx, MPI_DOUBLE, b.north, to_south, cart, &requests[1]);
  MPI_Irecv(&a[b.at(-1, 0)], 1, column, b.west, to_east, cart, &requests[2]);
  MPI_Irecv(&a[b.at(b.nx, 0)], 1, column, b.east, to_west, cart, &requests[3]);
  MPI_Isend(&a[b.at(0, b.ny - 1)], b.nx, MPI_DOUBLE, b.north, to_north, cart, &requests[4]);
  MPI_Isend(&a[b.at(0, 0)], b.nx, MPI_DOUBLE, b.south, to_south, cart, &requests[5]);
  MPI_Isend(&a[b.at(b.nx - 1, 0)], 1, column, b.east, to_east, cart, &requests[6]);
  MPI_Isend(&a[b.at(0, 0)], 1, column, b.west, to_west, cart, &requests[7]);
  MPI_Waitall(8, requests, MPI_STATUSES_IGNORE);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm cart = make_cart();
  const Block b = decompose(cart);
  std::vector<double> u(b.cells(), 0.0), unew(b.cells(), 0.0);  // ghost cells at the walls stay 0
  initialise(b, u);
  MPI_Datatype column;  // ny cells, one per row
  MPI_Type_vector(b.ny, 1, b.row(), MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  for (int step = 0; step < STEPS; ++step) {
    exchange(b, u, column, cart);
    jacobi_sweep(b, u, unew);
    std::swap(u, unew);  // MPI takes the buffer's address at every call
  }
  const double sum = checksum(b, u, cart);
  int rank, size;
  MPI_Comm_rank(cart, &rank);
  MPI_Comm_size(cart, &size);
  if (rank == 0) std::printf("mpi_jacobi: %d x %d, %d steps, %d ranks\nchecksum %.6f\n", NX, NY, STEPS, size, sum);
  MPI_Type_free(&column);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}
