// SPDX-License-Identifier: BSD-3-Clause
/* The Jacobi program of examples/porting/mpi_jacobi.cpp as an MPI-4 program writes it with a
 * persistent neighbourhood collective, the MPI calls renamed to ghostwire's (docs/mpi-shaped.md):
 * faces packed into one buffer, GW_Start, the interior swept while the messages travel, GW_Wait,
 * ghost cells unpacked, the rim swept. It runs twice, with buffers from malloc and with buffers in
 * a ghostwire Segment (node peers then read them in place), and prints the MPI program's checksum
 * when both runs give it.
 *
 *   scripts/launch -n 2 -- build/examples/porting_neighbor_jacobi */
#include <ghostwire/ghostwire.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NX = 48, NY = 32, STEPS = 20 };

/* Every call returns MPI_SUCCESS (= GW_SUCCESS) or an error; gw_last_error_message() says what. */
#define CHECK(call)                                                                   \
  do {                                                                                \
    if ((call) != MPI_SUCCESS) {                                                      \
      fprintf(stderr, "neighbor_jacobi: %s: %s\n", #call, gw_last_error_message());   \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                   \
    }                                                                                 \
  } while (0)

/* This rank's block: cells [x0, x0 + nx) x [y0, y0 + ny), one ghost cell all round, x fastest. */
typedef struct {
  int x0, y0, nx, ny;
  int west, east, south, north; /* MPI_PROC_NULL at a wall */
} Block;

static int at(const Block* b, int x, int y) { return (y + 1) * (b->nx + 2) + (x + 1); }
static int cells(const Block* b) { return (b->nx + 2) * (b->ny + 2); }
static int face_cells(const Block* b) { return 2 * b->nx + 2 * b->ny; }

static Block decompose(MPI_Comm cart) {
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

static void initialise(const Block* b, double* u) {
  for (int y = 0; y < b->ny; ++y)
    for (int x = 0; x < b->nx; ++x) u[at(b, x, y)] = ((7 * (b->x0 + x) + 13 * (b->y0 + y)) % 17) / 16.0;
}

/* The cells [x_begin, x_end) x [y_begin, y_end) of unew from u. */
static void sweep(const Block* b, const double* u, double* unew, int x_begin, int x_end, int y_begin, int y_end) {
  for (int y = y_begin; y < y_end; ++y)
    for (int x = x_begin; x < x_end; ++x)
      unew[at(b, x, y)] = 0.25 * (u[at(b, x - 1, y)] + u[at(b, x + 1, y)] + u[at(b, x, y - 1)] + u[at(b, x, y + 1)]);
}

/* The cells next to the ghost cells: the bottom and top rows, then the first and last columns. */
static void sweep_rim(const Block* b, const double* u, double* unew) {
  sweep(b, u, unew, 0, b->nx, 0, 1);
  sweep(b, u, unew, 0, b->nx, b->ny - 1, b->ny);
  sweep(b, u, unew, 0, 1, 1, b->ny - 1);
  sweep(b, u, unew, b->nx - 1, b->nx, 1, b->ny - 1);
}

/* The blocks of both buffers in the order of a Cartesian communicator's neighbours: dimension 0
 * (y) towards -1 and +1, then dimension 1 (x): south, north, west, east. */
static void blocks(const Block* b, int counts[4], int displs[4]) {
  counts[0] = counts[1] = b->nx;
  counts[2] = counts[3] = b->ny;
  displs[0] = 0;
  for (int i = 1; i < 4; ++i) displs[i] = displs[i - 1] + counts[i - 1];
}

static void pack(const Block* b, const double* u, double* send) {
  for (int x = 0; x < b->nx; ++x) {
    send[x] = u[at(b, x, 0)];
    send[b->nx + x] = u[at(b, x, b->ny - 1)];
  }
  for (int y = 0; y < b->ny; ++y) {
    send[2 * b->nx + y] = u[at(b, 0, y)];
    send[2 * b->nx + b->ny + y] = u[at(b, b->nx - 1, y)];
  }
}

/* Blocks from MPI_PROC_NULL carry nothing: the ghost cells at a wall keep their 0. */
static void unpack(const Block* b, const double* recv, double* u) {
  for (int x = 0; x < b->nx; ++x) {
    if (b->south != MPI_PROC_NULL) u[at(b, x, -1)] = recv[x];
    if (b->north != MPI_PROC_NULL) u[at(b, x, b->ny)] = recv[b->nx + x];
  }
  for (int y = 0; y < b->ny; ++y) {
    if (b->west != MPI_PROC_NULL) u[at(b, -1, y)] = recv[2 * b->nx + y];
    if (b->east != MPI_PROC_NULL) u[at(b, b->nx, y)] = recv[2 * b->nx + b->ny + y];
  }
}

/* Sum over all cells of (1 + x + NX * y) * u, on rank 0. */
static double checksum(const Block* b, const double* u, MPI_Comm comm) {
  double local = 0, total = 0;
  for (int y = 0; y < b->ny; ++y)
    for (int x = 0; x < b->nx; ++x) local += (1.0 + (b->x0 + x) + NX * (b->y0 + y)) * u[at(b, x, y)];
  MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
  return total;
}

/* The Jacobi steps with the faces going through `send` and `recv` (face_cells doubles each). */
static double run(const Block* b, MPI_Comm cart, double* send, double* recv) {
  double* u = calloc((size_t)cells(b), sizeof(double));
  double* unew = calloc((size_t)cells(b), sizeof(double));
  initialise(b, u);
  int counts[4], displs[4];
  blocks(b, counts, displs);
  GW_Request req;
  CHECK(GW_Neighbor_alltoallv_init(send, counts, displs, MPI_DOUBLE, recv, counts, displs, MPI_DOUBLE, cart,
                                   MPI_INFO_NULL, &req));
  for (int step = 0; step < STEPS; ++step) {
    pack(b, u, send);
    CHECK(GW_Start(&req));
    sweep(b, u, unew, 1, b->nx - 1, 1, b->ny - 1); /* the interior reads no ghost cell */
    CHECK(GW_Wait(&req, MPI_STATUS_IGNORE));
    unpack(b, recv, u);
    sweep_rim(b, u, unew);
    double* t = u;
    u = unew;
    unew = t;
  }
  CHECK(GW_Request_free(&req)); /* collective, as every rank frees its requests in the same order */
  const double sum = checksum(b, u, cart);
  free(u);
  free(unew);
  return sum;
}

/* The same with both buffers in a Segment of the communicator's World. */
static double run_shared(const Block* b, MPI_Comm cart) {
  const size_t send_bytes = (size_t)face_cells(b) * sizeof(double), recv_bytes = send_bytes;
  gw_world_t world;
  gw_segment_t segment;
  CHECK(GW_Comm_world(cart, &world));
  CHECK(gw_segment_create(world, send_bytes + recv_bytes, 0, &segment)); /* collective */
  double* send;
  CHECK(gw_segment_data(segment, (void**)&send));
  double* recv = send + send_bytes / sizeof(double);
  const double sum = run(b, cart, send, recv);
  CHECK(gw_segment_destroy(&segment)); /* before MPI_Comm_free */
  return sum;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int size, rank;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {0, 0}, periods[2] = {0, 1}; /* y: walls, x: periodic */
  MPI_Dims_create(size, 2, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Comm_rank(cart, &rank);
  const Block b = decompose(cart);

  double* send = malloc((size_t)face_cells(&b) * sizeof(double));
  double* recv = malloc((size_t)face_cells(&b) * sizeof(double));
  const double private_sum = run(&b, cart, send, recv);
  free(send);
  free(recv);
  const double shared_sum = run_shared(&b, cart);

  int status = 0;
  if (rank == 0) {
    printf("neighbor_jacobi: %d x %d, %d steps, %d ranks (%d x %d)\n", NX, NY, STEPS, size, dims[0], dims[1]);
    if (private_sum == shared_sum) {
      printf("checksum %.6f\n", private_sum);
    } else {
      printf("neighbor_jacobi: buffers from malloc gave %.17g, buffers in a Segment %.17g\n", private_sum, shared_sum);
      status = 1;
    }
  }
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return status;
}
