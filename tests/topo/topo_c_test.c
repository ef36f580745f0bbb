// SPDX-License-Identifier: BSD-3-Clause
/* The C API of placement: gw_topo_map_cartesian and gw_topo_place_cartesian give one permutation
 * on every rank (rank order for GW_PLACEMENT_RANK_ORDER), bad arguments an error code and a
 * message, and gw_topo_reordered_comm a communicator whose rank p is the process at position p. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ghostwire/ghostwire.h"

static int failures = 0;
#define CHECK(cond, ...)                              \
  do {                                                \
    if (!(cond)) {                                    \
      fprintf(stderr, "topo_c_test:%d: ", __LINE__);  \
      fprintf(stderr, __VA_ARGS__);                   \
      fprintf(stderr, "\n");                          \
      ++failures;                                     \
    }                                                 \
  } while (0)

static int is_permutation(const int* p, int n) {
  int ok = 1;
  int* seen = calloc((size_t)n, sizeof(int));
  for (int i = 0; i < n; ++i) {
    if (p[i] < 0 || p[i] >= n || seen[p[i]]) ok = 0;
    else seen[p[i]] = 1;
  }
  free(seen);
  return ok;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  gw_world_t world = NULL;
  CHECK(gw_world_create(MPI_COMM_WORLD, &world) == GW_SUCCESS, "create: %s", gw_last_error_message());
  int rank, size;
  gw_world_rank(world, &rank);
  gw_world_size(world, &size);

  /* A 3-D grid size x 1 x 1 and a 2-D one, periodic and open. */
  int dims3[3] = {size, 1, 1}, periodic3[3] = {1, 1, 1};
  int* rank_of = malloc((size_t)size * sizeof(int));
  int* first = malloc((size_t)size * sizeof(int));
  CHECK(gw_topo_map_cartesian(world, 3, dims3, periodic3, rank_of) == GW_SUCCESS, "map: %s", gw_last_error_message());
  CHECK(is_permutation(rank_of, size), "map: not a permutation");
  memcpy(first, rank_of, (size_t)size * sizeof(int));
  MPI_Bcast(first, size, MPI_INT, 0, MPI_COMM_WORLD);
  CHECK(memcmp(first, rank_of, (size_t)size * sizeof(int)) == 0, "map: ranks disagree");

  int dims2[2] = {size, 1}, open2[2] = {0, 0};
  int64_t block[2] = {64, 32};
  CHECK(gw_topo_place_cartesian(world, GW_PLACEMENT_RANK_ORDER, 2, dims2, open2, block, rank_of) == GW_SUCCESS,
        "rank order: %s", gw_last_error_message());
  for (int p = 0; p < size; ++p) CHECK(rank_of[p] == p, "rank order: position %d on rank %d", p, rank_of[p]);
  CHECK(gw_topo_place_cartesian(world, GW_PLACEMENT_AUTOMATIC, 2, dims2, open2, NULL, rank_of) == GW_SUCCESS,
        "automatic: %s", gw_last_error_message());
  CHECK(is_permutation(rank_of, size), "automatic: not a permutation");

  /* Errors: a grid of the wrong size, a bad placement, too many dimensions. */
  int wrong[2] = {size + 1, 1};
  CHECK(gw_topo_map_cartesian(world, 2, wrong, open2, rank_of) == GW_ERR_INVALID_ARGUMENT, "wrong size accepted");
  CHECK(strstr(gw_last_error_message(), "world has") != NULL, "message: %s", gw_last_error_message());
  CHECK(gw_topo_place_cartesian(world, 7, 2, dims2, open2, NULL, rank_of) == GW_ERR_INVALID_ARGUMENT,
        "placement 7 accepted");
  CHECK(strstr(gw_last_error_message(), "placement is 7") != NULL, "message: %s", gw_last_error_message());
  int dims4[4] = {size, 1, 1, 1}, periodic4[4] = {0, 0, 0, 0};
  CHECK(gw_topo_map_cartesian(world, 4, dims4, periodic4, rank_of) == GW_ERR_INVALID_ARGUMENT, "4-D accepted");

  /* The reordered communicator: rank p is the process at position p. */
  CHECK(gw_topo_map_cartesian(world, 3, dims3, periodic3, rank_of) == GW_SUCCESS, "map: %s", gw_last_error_message());
  MPI_Comm reordered = MPI_COMM_NULL;
  CHECK(gw_topo_reordered_comm(MPI_COMM_WORLD, rank_of, &reordered) == GW_SUCCESS, "reordered: %s",
        gw_last_error_message());
  int position = -1;
  MPI_Comm_rank(reordered, &position);
  CHECK(position >= 0 && rank_of[position] == rank, "rank %d got position %d", rank, position);
  MPI_Comm_free(&reordered);

  free(rank_of);
  free(first);
  gw_world_destroy(&world);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Finalize();
  if (rank == 0) printf("%s\n", all ? "FAILED" : "topo C API: all checks passed");
  return all ? 1 : 0;
}
