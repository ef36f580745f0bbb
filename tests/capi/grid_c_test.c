// SPDX-License-Identifier: BSD-3-Clause
/* Distributed grids through the C API: every element type in 1 to 3 dimensions on rectangular
 * extents (a transposed order or a wrong stride puts another cell's value in a ghost), periodic and
 * open boundaries, faces and full stencils, the split update, a multi-grid update with per-grid
 * depths, and errors as codes plus messages. Every ghost must hold its owner's global index. */
#include <stdio.h>
#include <string.h>

#include "ghostwire/ghostwire.h"

#define C_CHECK_NAME "grid_c_test"
#include "c_check.h"


static const double sentinel = -7;

/* A grid's geometry padded to 3 dimensions (the missing slow ones of extent 1). */
typedef struct {
  int type, dims;
  char* data;
  size_t element;
  int64_t global[3], local[3], stride[3], offset[3], width[3];
} view_t;

static view_t view_of(gw_grid_t grid) {
  view_t v;
  memset(&v, 0, sizeof v);
  int64_t g[3], l[3], s[3], o[3], w[3];
  void* data;
  OK(gw_grid_type(grid, &v.type));
  OK(gw_grid_dimensions(grid, &v.dims));
  OK(gw_grid_data(grid, &data));
  OK(gw_grid_extents(grid, g));
  OK(gw_grid_local_extents(grid, l));
  OK(gw_grid_strides(grid, s));
  OK(gw_grid_offset(grid, o));
  OK(gw_grid_halo_widths(grid, w));
  v.data = data;
  v.element = v.type == GW_DOUBLE || v.type == GW_INT64 ? 8 : 4;
  int pad = 3 - v.dims;
  for (int d = 0; d < 3; ++d) {
    int from = d - pad;
    v.global[d] = from < 0 ? 1 : g[from];
    v.local[d] = from < 0 ? 1 : l[from];
    v.stride[d] = from < 0 ? 0 : s[from];
    v.offset[d] = from < 0 ? 0 : o[from];
    v.width[d] = from < 0 ? 0 : w[from];
  }
  return v;
}

static void* cell(const view_t* v, const int64_t* i) {
  return v->data + (i[0] * v->stride[0] + i[1] * v->stride[1] + i[2] * v->stride[2]) * (int64_t)v->element;
}
static double get(const view_t* v, const int64_t* i) {
  void* p = cell(v, i);
  switch (v->type) {
    case GW_DOUBLE: return *(double*)p;
    case GW_FLOAT: return *(float*)p;
    case GW_INT32: return *(int32_t*)p;
    default: return (double)*(int64_t*)p;
  }
}
static void set(const view_t* v, const int64_t* i, double x) {
  void* p = cell(v, i);
  switch (v->type) {
    case GW_DOUBLE: *(double*)p = x; break;
    case GW_FLOAT: *(float*)p = (float)x; break;
    case GW_INT32: *(int32_t*)p = (int32_t)x; break;
    default: *(int64_t*)p = (int64_t)x; break;
  }
}
static double value_at(const int64_t* g, int round) { return round * 1000000 + g[0] * 10000 + g[1] * 100 + g[2] + 1; }

/* Fills the owned cells with their global index and the ghosts with the sentinel. */
static void fill(const view_t* v, int round) {
  int64_t i[3];
  for (i[0] = -v->width[0]; i[0] < v->local[0] + v->width[0]; ++i[0])
    for (i[1] = -v->width[1]; i[1] < v->local[1] + v->width[1]; ++i[1])
      for (i[2] = -v->width[2]; i[2] < v->local[2] + v->width[2]; ++i[2]) {
        int owned = 1;
        int64_t g[3];
        for (int d = 0; d < 3; ++d) {
          owned &= i[d] >= 0 && i[d] < v->local[d];
          g[d] = v->offset[d] + i[d];
        }
        set(v, i, owned ? value_at(g, round) : sentinel);
      }
}

/* Checks every ghost: filled with the owner's index when it lies within the depth (low, high per
 * padded dimension), inside the grid or across a periodic boundary, and on a face unless full;
 * else the sentinel. */
static void verify(const view_t* v, int round, const int64_t* low, const int64_t* high, int full, const int* periodic,
                   const char* what) {
  if (v->local[0] * v->local[1] * v->local[2] == 0) return;
  int64_t i[3];
  int bad = 0;
  for (i[0] = -v->width[0]; i[0] < v->local[0] + v->width[0]; ++i[0])
    for (i[1] = -v->width[1]; i[1] < v->local[1] + v->width[1]; ++i[1])
      for (i[2] = -v->width[2]; i[2] < v->local[2] + v->width[2]; ++i[2]) {
        int outside = 0, reachable = 1;
        int64_t g[3];
        for (int d = 0; d < 3; ++d) {
          g[d] = v->offset[d] + i[d];
          if (i[d] < 0 || i[d] >= v->local[d]) {
            ++outside;
            if (i[d] < -low[d] || i[d] >= v->local[d] + high[d]) reachable = 0;
          }
          if (g[d] < 0 || g[d] >= v->global[d]) {
            if (!periodic[d]) reachable = 0;
            g[d] = (g[d] + v->global[d]) % v->global[d];
          }
        }
        if (outside == 0) continue;
        if (outside > 1 && !full) reachable = 0;
        double expected = reachable ? value_at(g, round) : sentinel, got = get(v, i);
        if (got != expected && bad++ < 5)
          CHECK(0, "%s round %d: local (%ld, %ld, %ld) holds %.0f, expected %.0f", what, round, (long)i[0], (long)i[1],
                (long)i[2], got, expected);
      }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  gw_world_t world;
  OK(gw_world_create(MPI_COMM_WORLD, &world));
  int rank, size;
  gw_world_rank(world, &rank);
  gw_world_size(world, &size);

  /* Each type in 1, 2 and 3 dimensions, rectangular extents, halo widths differing per dimension. */
  const int64_t extents[3] = {7, 9, 11}, widths[3] = {2, 1, 3};
  const int types[4] = {GW_DOUBLE, GW_FLOAT, GW_INT32, GW_INT64};
  for (int t = 0; t < 4; ++t)
    for (int dims = 1; dims <= 3; ++dims)
      for (int variant = 0; variant < 2; ++variant) {
        int periodic[3] = {variant, 1, variant}, padded_periodic[3] = {1, 1, 1};
        int full = variant;
        gw_grid_t grid;
        OK(gw_grid_create(world, types[t], dims, extents + 3 - dims, NULL, widths + 3 - dims, periodic + 3 - dims,
                          full ? GW_STENCIL_FULL : GW_STENCIL_FACES, &grid));
        view_t v = view_of(grid);
        for (int d = 0; d < 3; ++d) padded_periodic[d] = d < 3 - dims ? 0 : periodic[d];
        char what[64];
        snprintf(what, sizeof what, "type %d, %d-D, variant %d", types[t], dims, variant);
        for (int round = 0; round < 3; ++round) {
          fill(&v, round);
          if (round == 1) {
            gw_halo_handle_t pending;
            OK(gw_grid_update_halo_start(grid, &pending));
            OK(gw_halo_wait(&pending));
            CHECK(pending == NULL, "gw_halo_wait leaves the handle");
          } else {
            OK(gw_grid_update_halo(grid));
          }
          verify(&v, round, v.width, v.width, full, padded_periodic, what);
        }
        OK(gw_grid_destroy(&grid));
      }

  /* A given process grid: all ranks along the slow dimension. */
  {
    int64_t e[2] = {4 * size, 5}, w[2] = {1, 1};
    int procs[2] = {size, 1}, got[2], periodic[2] = {1, 1};
    gw_grid_t grid;
    OK(gw_grid_create(world, GW_DOUBLE, 2, e, procs, w, periodic, GW_STENCIL_FULL, &grid));
    OK(gw_grid_process_grid(grid, got));
    CHECK(got[0] == size && got[1] == 1, "process grid %d x %d", got[0], got[1]);
    view_t v = view_of(grid);
    CHECK(v.local[1] == 4 && v.local[2] == 5 && v.offset[1] == 4 * rank, "block %ld x %ld at %ld", (long)v.local[1],
          (long)v.local[2], (long)v.offset[1]);
    int64_t ones[3] = {1, 1, 1};
    int pp[3] = {0, 1, 1};
    fill(&v, 0);
    OK(gw_grid_update_halo(grid));
    verify(&v, 0, ones, ones, 1, pp, "given process grid");
    char text[512];
    OK(gw_grid_describe(grid, text, sizeof text));
    CHECK(strstr(text, "rank") != NULL, "describe: %s", text);
    OK(gw_grid_destroy(&grid));
  }

  /* The reverse: rows 4 per rank over the ranks, periodic, 1 ghost row each side. After a forward
   * update of ones the reverse sum gives 2 on each block's first and last row (one ghost image each)
   * and 1 inside; the max of equal values changes nothing. */
  {
    int64_t e[2] = {4 * size, 5}, w[2] = {1, 0}, strides[2];
    int procs[2] = {size, 1}, periodic[2] = {1, 0};
    gw_grid_t grid;
    OK(gw_grid_create(world, GW_INT64, 2, e, procs, w, periodic, GW_STENCIL_FACES, &grid));
    int64_t* data;
    OK(gw_grid_data(grid, (void**)&data));
    OK(gw_grid_strides(grid, strides));
    for (int64_t i = 0; i < 4; ++i)
      for (int64_t j = 0; j < 5; ++j) data[i * strides[0] + j] = 1;
    OK(gw_grid_update_halo(grid));
    OK(gw_grid_reverse_halo(grid, GW_SUM));
    for (int64_t i = 0; i < 4; ++i)
      for (int64_t j = 0; j < 5; ++j)
        CHECK(data[i * strides[0] + j] == (i == 0 || i == 3 ? 2 : 1), "reverse sum row %ld: %ld", (long)i,
              (long)data[i * strides[0] + j]);
    gw_halo_update_t update;
    OK(gw_halo_update_create(&grid, 1, NULL, NULL, GW_PER_NEIGHBOUR, &update));
    OK(gw_halo_update_run(update));
    gw_halo_handle_t pending;
    OK(gw_halo_update_reverse_start(update, GW_MAX, &pending));
    OK(gw_halo_wait(&pending));
    OK(gw_halo_update_reverse_run(update, GW_MIN));
    for (int64_t i = 0; i < 4; ++i)
      CHECK(data[i * strides[0]] == (i == 0 || i == 3 ? 2 : 1), "reverse max/min row %ld: %ld", (long)i,
            (long)data[i * strides[0]]);
    int code = gw_grid_reverse_halo(grid, 17);
    CHECK(code == GW_ERR_INVALID_ARGUMENT, "bad op: %d %s", code, gw_last_error_message());
    OK(gw_halo_update_destroy(&update));
    OK(gw_grid_destroy(&grid));
  }

  /* One update of three grids, each its own depth; per variable, then one grid alone. */
  {
    int64_t e[3] = {6, 8, 10}, w[3] = {2, 2, 2};
    int periodic[3] = {1, 1, 1};
    gw_grid_t grids[3];
    OK(gw_grid_create(world, GW_DOUBLE, 3, e, NULL, w, periodic, GW_STENCIL_FULL, &grids[0]));
    OK(gw_grid_create(world, GW_FLOAT, 3, e, NULL, w, periodic, GW_STENCIL_FULL, &grids[1]));
    OK(gw_grid_create(world, GW_INT32, 3, e, NULL, w, periodic, GW_STENCIL_FULL, &grids[2]));
    const int64_t low[9] = {1, 2, 1, -1, 0, 0, 2, 2, 2}, high[9] = {2, 1, 1, 0, 0, 0, 1, 0, 2};
    gw_halo_update_t update;
    OK(gw_halo_update_create(grids, 3, low, high, GW_PER_VARIABLE, &update));
    char text[2048];
    OK(gw_halo_update_describe(update, text, sizeof text));
    view_t v[3];
    for (int g = 0; g < 3; ++g) v[g] = view_of(grids[g]);
    for (int round = 0; round < 3; ++round) {
      for (int g = 0; g < 3; ++g) fill(&v[g], round);
      if (round == 0) {
        OK(gw_halo_update_run(update));
      } else if (round == 1) {
        gw_halo_handle_t pending;
        OK(gw_halo_update_start(update, &pending));
        OK(gw_halo_wait(&pending));
      } else {
        for (size_t g = 0; g < 3; ++g) {
          gw_halo_handle_t pending;
          OK(gw_halo_update_start_grid(update, g, &pending));
          OK(gw_halo_wait(&pending));
        }
      }
      verify(&v[0], round, low, high, 1, periodic, "depth grid 0");
      verify(&v[1], round, w, w, 1, periodic, "depth grid 1 (whole halo)");
      verify(&v[2], round, low + 6, high + 6, 1, periodic, "depth grid 2");
    }
    for (int g = 0; g < 3; ++g) fill(&v[g], 5);
    OK(gw_halo_update_run_grid(update, 2));
    verify(&v[2], 5, low + 6, high + 6, 1, periodic, "grid 2 alone");
    const int64_t none[3] = {0, 0, 0};
    verify(&v[0], 5, none, none, 1, periodic, "grid 0 untouched");
    OK(gw_halo_update_destroy(&update));

    /* Errors: a depth beyond the halo, a bad type, a bad dimension count. */
    const int64_t deep[3] = {3, 1, 1};
    int code = gw_halo_update_create(grids, 1, deep, deep, GW_PER_NEIGHBOUR, &update);
    CHECK(code == GW_ERR_INVALID_ARGUMENT || code == GW_ERR_OUT_OF_RANGE, "deep: %d %s", code, gw_last_error_message());
    gw_grid_t bad;
    code = gw_grid_create(world, 9, 2, e, NULL, w, periodic, GW_STENCIL_FACES, &bad);
    CHECK(code == GW_ERR_INVALID_ARGUMENT && strstr(gw_last_error_message(), "type 9"), "%d %s", code,
          gw_last_error_message());
    code = gw_grid_create(world, GW_DOUBLE, 4, e, NULL, w, periodic, GW_STENCIL_FACES, &bad);
    CHECK(code == GW_ERR_INVALID_ARGUMENT && strstr(gw_last_error_message(), "1 to 3"), "%d %s", code,
          gw_last_error_message());
    int procs[3] = {size + 1, 1, 1};
    code = gw_grid_create(world, GW_DOUBLE, 3, e, procs, w, periodic, GW_STENCIL_FACES, &bad);
    CHECK(code == GW_ERR_INVALID_ARGUMENT, "process grid of size+1: %d %s", code, gw_last_error_message());
    code = gw_grid_update_halo(NULL);
    CHECK(code == GW_ERR_INVALID_ARGUMENT && strstr(gw_last_error_message(), "grid is NULL"), "%d %s", code,
          gw_last_error_message());
    for (int g = 0; g < 3; ++g) OK(gw_grid_destroy(&grids[g]));
  }

  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(all ? "grid_c_test: %d failure(s)\n" : "grid_c_test: all checks passed\n", all);
  OK(gw_world_destroy(&world));
  MPI_Finalize();
  return all != 0;
}
