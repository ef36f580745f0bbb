// SPDX-License-Identifier: BSD-3-Clause
// gw-petsc-sf-bench: the star-forest of a DMDA global-to-local scatter, timed per PetscSF type in
// one run. For each size, one DMDA (2-D 5-point or 3-D 7-point stencil, `dof` values per point, n^d
// points per rank); its global-to-local scatter duplicated once per type (-types), every copy set up
// before timing; then `reps` rounds, each timing every type in turn (the order rotates round to
// round) over `iters` scatters: VecScatterBegin + VecScatterEnd forward (INSERT_VALUES: PetscSF
// Bcast) and, with -ops reverse or both, reverse (ADD_VALUES: PetscSF Reduce). Every type's result
// is checked against basic's, bit for bit. Timed in the same rounds, "copy-floor" (what every type
// must do besides its messages: this rank's owned values copied into, reverse: added from, the local
// vector) and "pack-floor" (that and packing and unpacking the units exchanged with other ranks, in
// one process: what a type that packs does besides moving its messages; sf_floors.h). One JSON line
// per (type or floor, operation, size) with the median time per scatter (the slowest rank's) and
// the median of the per-round ratios to basic.
// A type "ghostwire:<transfer>" (segment, cma, auto) is ghostwire with -sf_ghostwire_transfer forced
// for that copy (through an options prefix of its own); its JSON "type" is the full name.
// -run R replaces the DMDA by a ring of messages alone (no owned values): each rank's n*dof leaves
// read the next rank's roots in runs of R*dof values with a one-value gap between runs (-run 1:
// every other value, a strided face); the copy floor is then one plain copy of the message, the
// pack floor the packing and unpacking alone.
// -proc_grid px,py[,pz] fixes the DMDA's ranks per dimension (e.g. 1,1,2: split along z, so that
// the faces between ranks are contiguous).
// -global M,N[,P] replaces -sizes by one DMDA of M x N (x P) points in all, split over the ranks as
// PETSc splits an application's DMDA (PETSC_DECIDE, or -proc_grid): the scatter of, e.g., SNES ex5
// at -da_grid_x M -da_grid_y N, with its copy floor. Its rows print n=0 and carry "global" in JSON.
//
//   mpirun -n 4 gw-petsc-sf-bench -dim 2 -dof 1 -sizes 64,256,1024 -types basic,neighbor,window,ghostwire \
//       -dll_append build/bindings/petsc/libghostwire_petsc.so
#include <petscdmda.h>
#include <petscsf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sf_floors.h"

#define MAX_TYPES 8
#define MAX_SIZES 16
#define FLOOR_VARIANTS 2  // after the types: the copy floor, the pack floor

typedef struct {
  PetscInt dim, dof, reps, iters, nsizes, ntypes, run;
  PetscInt sizes[MAX_SIZES];
  PetscInt grid[3], ngrid;  // -proc_grid: ranks per dimension (0 entries: MPI_Dims_create chooses)
  PetscInt global[3], nglobal;  // -global: points in all per dimension (nglobal 0: -sizes per rank)
  char types[MAX_TYPES][32];
  PetscBool forward, reverse;
  char json[PETSC_MAX_PATH_LEN];
} Options;

static PetscErrorCode read_options(Options* o) {
  char list[512] = "basic,neighbor,window", ops[32] = "both";
  PetscBool given;
  PetscFunctionBeginUser;
  o->dim = 2;
  o->dof = 1;
  o->reps = 15;
  o->iters = 0;  // 0: chosen per size so that a round takes about 20 ms
  o->nsizes = MAX_SIZES;
  o->json[0] = '\0';
  o->run = 0;
  o->ngrid = 3;
  o->grid[0] = o->grid[1] = o->grid[2] = 0;
  o->nglobal = 3;
  o->global[0] = o->global[1] = o->global[2] = 0;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "gw-petsc-sf-bench options", NULL);
  PetscCall(PetscOptionsInt("-dim", "2 (5-point stencil) or 3 (7-point)", NULL, o->dim, &o->dim, NULL));
  PetscCall(PetscOptionsInt("-dof", "values per grid point", NULL, o->dof, &o->dof, NULL));
  PetscCall(PetscOptionsInt("-reps", "rounds (each times every type)", NULL, o->reps, &o->reps, NULL));
  PetscCall(PetscOptionsInt("-iters", "scatters per timing (0: automatic)", NULL, o->iters, &o->iters, NULL));
  PetscCall(PetscOptionsIntArray("-sizes", "points per rank per dimension", NULL, o->sizes, &o->nsizes, &given));
  if (!given) {
    o->nsizes = 0;
    for (PetscInt n = o->dim == 2 ? 64 : 16; n <= (o->dim == 2 ? 1024 : 128); n *= 2) o->sizes[o->nsizes++] = n;
  }
  PetscCall(PetscOptionsInt("-run", "ring of messages in runs of this many points instead of a DMDA (0: DMDA)", NULL,
                            o->run, &o->run, NULL));
  PetscCall(PetscOptionsIntArray("-proc_grid", "ranks per dimension, e.g. 1,2 (rows split: contiguous faces)", NULL,
                                 o->grid, &o->ngrid, NULL));
  PetscCall(PetscOptionsIntArray("-global", "one DMDA of these points in all per dimension (as an application's)", NULL,
                                 o->global, &o->nglobal, &given));
  if (!given) o->nglobal = 0;
  PetscCall(PetscOptionsString("-types", "PetscSF types, comma-separated (basic first)", NULL, list, list,
                               sizeof list, NULL));
  PetscCall(PetscOptionsString("-ops", "forward, reverse or both", NULL, ops, ops, sizeof ops, NULL));
  PetscCall(PetscOptionsString("-json", "append the JSON lines to this file", NULL, o->json, o->json,
                               sizeof o->json, NULL));
  PetscOptionsEnd();
  PetscCheck(o->dim == 2 || o->dim == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-dim %" PetscInt_FMT ": expected 2 or 3", o->dim);
  PetscCheck(o->dof >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-dof %" PetscInt_FMT ": expected >= 1", o->dof);
  PetscCheck(o->nglobal == 0 || (o->nglobal == o->dim && o->global[0] > 0 && o->global[1] > 0 && (o->dim == 2 || o->global[2] > 0)),
             PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-global: expected %" PetscInt_FMT " positive point counts (one per dimension)", o->dim);
  PetscCheck(o->nglobal == 0 || o->run == 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-global and -run exclude each other");
  if (o->nglobal) {  // one DMDA: its sizes are given in all
    o->nsizes = 1;
    o->sizes[0] = 0;
  }
  PetscCheck(o->reps >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reps %" PetscInt_FMT ": expected >= 1", o->reps);
  o->forward = (PetscBool)(!strcmp(ops, "forward") || !strcmp(ops, "both"));
  o->reverse = (PetscBool)(!strcmp(ops, "reverse") || !strcmp(ops, "both"));
  PetscCheck(o->forward || o->reverse, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-ops %s: expected forward, reverse or both", ops);
  o->ntypes = 0;
  for (char* t = strtok(list, ","); t && o->ntypes < MAX_TYPES; t = strtok(NULL, ","))
    PetscCall(PetscStrncpy(o->types[o->ntypes++], t, sizeof o->types[0]));
  PetscCheck(o->ntypes >= 1 && !strcmp(o->types[0], "basic"), PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG,
             "-types must start with basic (every type is checked against it and timed relative to it)");
  PetscFunctionReturn(0);
}

static int compare_doubles(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}
static double median(double* values, PetscInt n) {
  qsort(values, (size_t)n, sizeof *values, compare_doubles);
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// A DMDA of n^dim points per rank, star stencil of width 1, no periodicity (as SNES ex5 and ex19).
static PetscErrorCode make_dmda(const Options* o, PetscInt n, DM* da) {
  PetscMPIInt size;
  int dims[3] = {(int)o->grid[0], (int)o->grid[1], (int)o->grid[2]};
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (o->nglobal) {
    const PetscInt px = dims[0] ? dims[0] : PETSC_DECIDE, py = dims[1] ? dims[1] : PETSC_DECIDE,
                   pz = dims[2] ? dims[2] : PETSC_DECIDE;
    if (o->dim == 2)
      PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, o->global[0],
                             o->global[1], px, py, o->dof, 1, NULL, NULL, da));
    else
      PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR,
                             o->global[0], o->global[1], o->global[2], px, py, pz, o->dof, 1, NULL, NULL, NULL, da));
    PetscCall(DMSetUp(*da));
    PetscFunctionReturn(0);
  }
  if (o->dim == 2) dims[2] = 0;
  PetscCallMPI(MPI_Dims_create(size, (int)o->dim, dims));
  if (o->dim == 2)
    PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n * dims[0],
                           n * dims[1], dims[0], dims[1], o->dof, 1, NULL, NULL, da));
  else
    PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR,
                           n * dims[0], n * dims[1], n * dims[2], dims[0], dims[1], dims[2], o->dof, 1, NULL, NULL,
                           NULL, da));
  PetscCall(DMSetUp(*da));
  PetscFunctionReturn(0);
}

// The SF of type name `name`: "ghostwire:<transfer>" is ghostwire with its transfer set through
// the options prefix gw<t>_ (t: its position in -types), so that each copy has its own.
static PetscErrorCode set_type(PetscSF sf, const char* name, PetscInt t) {
  const char* colon = strchr(name, ':');
  char type[32], prefix[16], option[64];
  PetscFunctionBeginUser;
  if (!colon) {
    PetscCall(PetscSFSetType(sf, name));
    PetscFunctionReturn(0);
  }
  PetscCall(PetscStrncpy(type, name, (size_t)(colon - name) + 1));
  PetscCall(PetscSNPrintf(prefix, sizeof prefix, "gw%" PetscInt_FMT "_", t));
  PetscCall(PetscSNPrintf(option, sizeof option, "-%ssf_ghostwire_transfer", prefix));
  PetscCall(PetscOptionsSetValue(NULL, option, colon + 1));
  PetscCall(PetscSFSetType(sf, type));
  PetscCall(PetscObjectSetOptionsPrefix((PetscObject)sf, prefix));
  PetscCall(PetscSFSetFromOptions(sf));
  PetscFunctionReturn(0);
}

// The ring (-run): n*dof leaves per rank, from the next rank's roots, in runs of run*dof values.
static PetscErrorCode make_ring(const Options* o, PetscInt n, PetscSF* sf, Vec* global, Vec* local) {
  PetscMPIInt rank, size;
  PetscSFNode* remote;
  const PetscInt leaves = n * o->dof, run = o->run * o->dof, roots = (leaves + run - 1) / run * (run + 1);
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscMalloc1(leaves, &remote));
  for (PetscInt i = 0; i < leaves; ++i) {
    remote[i].rank = (rank + 1) % size;
    remote[i].index = i / run * (run + 1) + i % run;
  }
  PetscCall(PetscSFCreate(PETSC_COMM_WORLD, sf));
  PetscCall(PetscSFSetGraph(*sf, roots, leaves, NULL, PETSC_COPY_VALUES, remote, PETSC_OWN_POINTER));
  PetscCall(VecCreateMPI(PETSC_COMM_WORLD, roots, PETSC_DETERMINE, global));
  PetscCall(VecCreateSeq(PETSC_COMM_SELF, leaves, local));
  PetscFunctionReturn(0);
}

// One scatter in the direction asked for: forward global -> local (Bcast), reverse local -> global
// adding (Reduce).
static PetscErrorCode scatter(PetscSF sf, Vec global, Vec local, PetscBool reverse) {
  PetscFunctionBeginUser;
  if (reverse) {
    PetscCall(VecScatterBegin(sf, local, global, ADD_VALUES, SCATTER_REVERSE));
    PetscCall(VecScatterEnd(sf, local, global, ADD_VALUES, SCATTER_REVERSE));
  } else {
    PetscCall(VecScatterBegin(sf, global, local, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(sf, global, local, INSERT_VALUES, SCATTER_FORWARD));
  }
  PetscFunctionReturn(0);
}

// Values that show a misplaced, lost or doubled entry: distinct integers (exact in any sum order).
static PetscErrorCode fill(Vec global, Vec local, PetscInt round) {
  PetscInt first, count;
  PetscScalar* v;
  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(global, &first, NULL));
  PetscCall(VecGetLocalSize(global, &count));
  PetscCall(VecGetArray(global, &v));
  for (PetscInt i = 0; i < count; ++i) v[i] = (PetscScalar)(first + i + 1 + 1000000 * round);
  PetscCall(VecRestoreArray(global, &v));
  PetscCall(VecGetLocalSize(local, &count));
  PetscCall(VecGetArray(local, &v));
  for (PetscInt i = 0; i < count; ++i) v[i] = (PetscScalar)(3 * i + 7 + round);
  PetscCall(VecRestoreArray(local, &v));
  PetscFunctionReturn(0);
}

// The slowest rank's seconds per scatter for `iters` scatters.
static PetscErrorCode time_scatters(PetscSF sf, Vec global, Vec local, PetscBool reverse, PetscInt iters,
                                    double* seconds) {
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  double start = MPI_Wtime();
  for (PetscInt k = 0; k < iters; ++k) PetscCall(scatter(sf, global, local, reverse));
  double mine = (MPI_Wtime() - start) / (double)iters;
  PetscCallMPI(MPI_Allreduce(&mine, seconds, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}

// Each type's result after one scatter from the same input, against basic's (type 0), on every rank.
// A type that differs is reported and marked (wrong[t]): its times are still printed, with
// "verified": false, so that a peer's fault (Open MPI's one-sided Reduce for window, seen at 4
// ranks) does not stop the other types' measurement; a ghostwire that differs fails the run.
static PetscErrorCode check_types(const Options* o, PetscSF* sfs, Vec global, Vec local, PetscBool reverse, PetscInt n,
                                  PetscBool* wrong) {
  Vec expected;
  Vec out = reverse ? global : local;
  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(out, &expected));
  for (PetscInt t = 0; t < o->ntypes; ++t) {
    PetscCall(fill(global, local, 1));
    PetscCall(scatter(sfs[t], global, local, reverse));
    if (t == 0) {
      PetscCall(VecCopy(out, expected));
      continue;
    }
    const PetscScalar *a, *b;
    PetscInt count;
    int same = 1, all = 0;
    PetscCall(VecGetLocalSize(out, &count));
    PetscCall(VecGetArrayRead(out, &a));
    PetscCall(VecGetArrayRead(expected, &b));
    same = count == 0 || memcmp(a, b, (size_t)count * sizeof *a) == 0;
    PetscCall(VecRestoreArrayRead(out, &a));
    PetscCall(VecRestoreArrayRead(expected, &b));
    PetscCallMPI(MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_LAND, PETSC_COMM_WORLD));
    wrong[t] = (PetscBool)!all;
    if (!all) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  warning: type %s: the %s scatter at n = %" PetscInt_FMT " differs from basic's\n",
                                    o->types[t], reverse ? "reverse" : "forward", n));
    PetscCheck(all || strncmp(o->types[t], "ghostwire", 9), PETSC_COMM_WORLD, PETSC_ERR_PLIB, "type %s: the %s scatter at n = %" PetscInt_FMT " differs from basic's",
               o->types[t], reverse ? "reverse" : "forward", n);
  }
  PetscCall(VecDestroy(&expected));
  PetscFunctionReturn(0);
}

// Scatters per timing: about 10 ms of basic's, between 5 and 5000.
static PetscErrorCode choose_iters(const Options* o, PetscSF basic, Vec global, Vec local, PetscBool reverse,
                                   PetscInt* iters) {
  double seconds;
  PetscFunctionBeginUser;
  if (o->iters > 0) {
    *iters = o->iters;
    PetscFunctionReturn(0);
  }
  PetscCall(time_scatters(basic, global, local, reverse, 5, &seconds));
  double want = 0.01 / (seconds > 1e-9 ? seconds : 1e-9);
  *iters = (PetscInt)(want < 5 ? 5 : want > 5000 ? 5000 : want);
  PetscFunctionReturn(0);
}

// Bytes per message to a neighbour: a face of the block (the largest one between ranks under
// -global), or the ring's message.
static PetscErrorCode face_bytes(const Options* o, PetscInt n, DM da, PetscInt* face) {
  PetscInt extent[3], procs[3], first[3];
  PetscFunctionBeginUser;
  *face = o->dof * (PetscInt)sizeof(PetscScalar);
  if (!o->nglobal) {
    for (PetscInt d = 1; d < o->dim && !o->run; ++d) *face *= n;
    if (o->run) *face *= n;
    PetscFunctionReturn(0);
  }
  PetscCall(DMDAGetInfo(da, NULL, NULL, NULL, NULL, &procs[0], &procs[1], &procs[2], NULL, NULL, NULL, NULL, NULL, NULL));
  PetscCall(DMDAGetCorners(da, &first[0], &first[1], &first[2], &extent[0], &extent[1], &extent[2]));
  PetscInt largest = 0;
  for (PetscInt d = 0; d < o->dim; ++d) {
    PetscInt points = 1;
    for (PetscInt e = 0; e < o->dim; ++e) points *= e == d ? 1 : extent[e];
    if (procs[d] > 1 && points > largest) largest = points;
  }
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &largest, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD));
  *face *= largest;
  PetscFunctionReturn(0);
}

static PetscErrorCode report(const Options* o, PetscInt n, PetscInt face, PetscBool reverse, PetscInt iters,
                             double* times, const PetscBool* wrong, FILE* json) {
  PetscMPIInt rank, size;
  double per_type[MAX_TYPES + FLOOR_VARIANTS], ratios[MAX_TYPES + FLOOR_VARIANTS], column[1024];
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  const PetscInt variants = o->ntypes + FLOOR_VARIANTS;
  for (PetscInt t = 0; t < variants; ++t) {
    for (PetscInt r = 0; r < o->reps; ++r) column[r] = times[r * variants + t];
    per_type[t] = median(column, o->reps);
    for (PetscInt r = 0; r < o->reps; ++r) column[r] = times[r * variants + t] / times[r * variants];
    ratios[t] = median(column, o->reps);
  }
  for (PetscInt t = 0; t < variants && rank == 0; ++t) {
    const char* name = t < o->ntypes ? o->types[t] : t == o->ntypes ? "copy-floor" : "pack-floor";
    printf("  %-17s %-7s n=%-5" PetscInt_FMT " %8" PetscInt_FMT " B/neighbour  %10.2f us  x%.3f of basic\n", name,
           reverse ? "reverse" : "forward", n, face, 1e6 * per_type[t], ratios[t]);
    if (json)
      fprintf(json,
              "{\"bench\": \"petsc-sf\", \"type\": \"%s\", \"op\": \"%s\", \"run\": %" PetscInt_FMT ", \"dim\": %" PetscInt_FMT
              ", \"dof\": %" PetscInt_FMT ", \"n\": %" PetscInt_FMT ", \"ranks\": %d, \"bytes_per_neighbour\": %" PetscInt_FMT
              ", \"seconds\": %.9g, \"ratio_to_basic\": %.6f, \"reps\": %" PetscInt_FMT ", \"iters\": %" PetscInt_FMT
              ", \"verified\": %s, ",
              name, reverse ? "reverse" : "forward", o->run, o->dim, o->dof, n, size, face, per_type[t], ratios[t], o->reps,
              iters, t < o->ntypes && wrong[t] ? "false" : "true");
    if (json && o->nglobal)
      fprintf(json, "\"global\": [%" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT "], ", o->global[0], o->global[1],
              o->dim == 3 ? o->global[2] : 1);
    if (json) fprintf(json, "\"round_seconds\": [");
    for (PetscInt r = 0; r < o->reps && json; ++r) fprintf(json, "%s%.9g", r ? ", " : "", times[r * variants + t]);
    if (json) fprintf(json, "]}\n");
  }
  fflush(stdout);
  PetscFunctionReturn(0);
}

static PetscErrorCode run_size(const Options* o, PetscInt n, FILE* json) {
  DM da;
  Vec global, local;
  VecScatter gtol;
  PetscSF sfs[MAX_TYPES];
  static double times[1024 * (MAX_TYPES + FLOOR_VARIANTS)];
  const PetscInt variants = o->ntypes + FLOOR_VARIANTS;
  Floors floors;
  PetscFunctionBeginUser;
  da = NULL;
  if (o->run > 0) PetscCall(make_ring(o, n, &gtol, &global, &local));
  else {
    PetscCall(make_dmda(o, n, &da));
    PetscCall(DMCreateGlobalVector(da, &global));
    PetscCall(DMCreateLocalVector(da, &local));
    PetscCall(DMDAGetScatter(da, &gtol, NULL));
  }
  for (PetscInt t = 0; t < o->ntypes; ++t) {
    PetscCall(PetscSFDuplicate(gtol, PETSCSF_DUPLICATE_GRAPH, &sfs[t]));
    PetscCall(set_type(sfs[t], o->types[t], t));
    PetscCall(PetscSFSetUp(sfs[t]));
  }
  PetscCall(floors_create(da, o->dof, sfs[0], local, &floors));
  for (int direction = 0; direction < 2; ++direction) {
    const PetscBool reverse = (PetscBool)(direction == 1);
    if ((reverse && !o->reverse) || (!reverse && !o->forward)) continue;
    PetscBool wrong[MAX_TYPES] = {PETSC_FALSE};
    PetscCall(check_types(o, sfs, global, local, reverse, n, wrong));
    PetscInt iters;
    PetscCall(choose_iters(o, sfs[0], global, local, reverse, &iters));
    for (PetscInt t = 0; t < o->ntypes; ++t) PetscCall(time_scatters(sfs[t], global, local, reverse, 5, &times[0]));
    for (PetscInt r = 0; r < o->reps; ++r)
      for (PetscInt k = 0; k < variants; ++k) {
        const PetscInt t = (k + r) % variants;  // every variant in every position of the round
        if (t < o->ntypes) PetscCall(time_scatters(sfs[t], global, local, reverse, iters, &times[r * variants + t]));
        else PetscCall(time_floor(&floors, (PetscBool)(t > o->ntypes), global, local, reverse, iters, &times[r * variants + t]));
      }
    PetscInt face;
    PetscCall(face_bytes(o, n, da, &face));
    PetscCall(report(o, n, face, reverse, iters, times, wrong, json));
  }
  PetscCall(floors_destroy(&floors));
  for (PetscInt t = 0; t < o->ntypes; ++t) PetscCall(PetscSFDestroy(&sfs[t]));
  PetscCall(VecDestroy(&global));
  PetscCall(VecDestroy(&local));
  if (o->run > 0) PetscCall(PetscSFDestroy(&gtol));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(0);
}

int main(int argc, char** argv) {
  Options o;
  FILE* json = NULL;
  PetscMPIInt rank, size;
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL,
                            "gw-petsc-sf-bench: a DMDA global-to-local scatter per PetscSF type, side by side.\n"));
  PetscCall(read_options(&o));
  PetscCheck(o.reps <= 1024, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reps %" PetscInt_FMT ": at most 1024", o.reps);
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (rank == 0 && o.json[0]) {
    json = fopen(o.json, "a");
    PetscCheck(json, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "-json %s: cannot open for appending", o.json);
  }
  if (rank == 0) printf("gw-petsc-sf-bench: %d ranks, %" PetscInt_FMT "-D, dof %" PetscInt_FMT ", %" PetscInt_FMT " rounds\n", size, o.dim, o.dof, o.reps);
  for (PetscInt i = 0; i < o.nsizes; ++i) PetscCall(run_size(&o, o.sizes[i], json));
  if (json) fclose(json);
  PetscCall(PetscFinalize());
  return 0;
}
