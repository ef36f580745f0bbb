// SPDX-License-Identifier: BSD-3-Clause
// The application code that the C++ versions of the porting guide's Jacobi program share
// (docs/porting.md): the problem, the block decomposition, the arrays' layout, the sweep and the
// checksum. The MPI original (mpi_jacobi.cpp) and its ghostwire port (../quickstart_plan.cpp)
// include it unchanged: porting replaces the halo exchange and nothing else.
//
// The problem: NX x NY cells, periodic in x, walls held at 0 below and above (y = -1 and y = NY),
// u = ((7x + 13y) mod 17) / 16 at the start, then STEPS sweeps u' = (west + east + south + north) / 4.
// The checksum weighs each cell by its global position, so a misplaced ghost value shows.
#pragma once

#include <mpi.h>

#include <vector>

constexpr int NX = 48, NY = 32, STEPS = 20;

// A Cartesian communicator over all ranks: dimension 0 is y (walls), dimension 1 is x (periodic).
inline MPI_Comm make_cart() {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {0, 0}, periods[2] = {0, 1};
  MPI_Dims_create(size, 2, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  return cart;
}

// This rank's block: cells [x0, x0 + nx) x [y0, y0 + ny), stored with one ghost cell all round,
// row by row (x fastest): cell (x, y) of the block is u[at(x, y)], x and y from -1 to nx / ny.
struct Block {
  int x0, y0, nx, ny;
  int west, east, south, north;  // neighbour ranks (MPI_PROC_NULL at a wall)
  int row() const { return nx + 2; }
  int cells() const { return row() * (ny + 2); }
  int at(int x, int y) const { return (y + 1) * row() + (x + 1); }
};

// Splits the grid over the ranks of `cart`, remainders spread.
inline Block decompose(MPI_Comm cart) {
  int dims[2], periods[2], coords[2];
  MPI_Cart_get(cart, 2, dims, periods, coords);
  Block b;
  b.y0 = coords[0] * NY / dims[0];
  b.ny = (coords[0] + 1) * NY / dims[0] - b.y0;
  b.x0 = coords[1] * NX / dims[1];
  b.nx = (coords[1] + 1) * NX / dims[1] - b.x0;
  MPI_Cart_shift(cart, 0, 1, &b.south, &b.north);
  MPI_Cart_shift(cart, 1, 1, &b.west, &b.east);
  return b;
}

inline void initialise(const Block& b, std::vector<double>& u) {
  for (int y = 0; y < b.ny; ++y)
    for (int x = 0; x < b.nx; ++x) u[b.at(x, y)] = ((7 * (b.x0 + x) + 13 * (b.y0 + y)) % 17) / 16.0;
}

// The cells [x_begin, x_end) x [y_begin, y_end) of unew from u.
inline void sweep_cells(const Block& b, const std::vector<double>& u, std::vector<double>& unew, int x_begin,
                        int x_end, int y_begin, int y_end) {
  for (int y = y_begin; y < y_end; ++y)
    for (int x = x_begin; x < x_end; ++x)
      unew[b.at(x, y)] = 0.25 * (u[b.at(x - 1, y)] + u[b.at(x + 1, y)] + u[b.at(x, y - 1)] + u[b.at(x, y + 1)]);
}

inline void jacobi_sweep(const Block& b, const std::vector<double>& u, std::vector<double>& unew) {
  sweep_cells(b, u, unew, 0, b.nx, 0, b.ny);
}

// The cells whose stencil reads no ghost cell, and the others (bottom and top rows, first and last
// columns): a sweep split in two, to compute while the halo exchange is under way.
inline void sweep_interior(const Block& b, const std::vector<double>& u, std::vector<double>& unew) {
  sweep_cells(b, u, unew, 1, b.nx - 1, 1, b.ny - 1);
}
inline void sweep_rim(const Block& b, const std::vector<double>& u, std::vector<double>& unew) {
  sweep_cells(b, u, unew, 0, b.nx, 0, 1);
  sweep_cells(b, u, unew, 0, b.nx, b.ny - 1, b.ny);
  sweep_cells(b, u, unew, 0, 1, 1, b.ny - 1);
  sweep_cells(b, u, unew, b.nx - 1, b.nx, 1, b.ny - 1);
}

// Sum over all cells of (1 + x + NX * y) * u, on rank 0.
inline double checksum(const Block& b, const std::vector<double>& u, MPI_Comm comm) {
  double local = 0, total = 0;
  for (int y = 0; y < b.ny; ++y)
    for (int x = 0; x < b.nx; ++x) local += (1.0 + (b.x0 + x) + NX * (b.y0 + y)) * u[b.at(x, y)];
  MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
  return total;
}
