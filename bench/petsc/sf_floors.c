// SPDX-License-Identifier: BSD-3-Clause
// The copy floor and the pack floor of gw-petsc-sf-bench (sf_floors.h).
#include "sf_floors.h"

#include <string.h>

// The units of the ranks other than mine in a rank list (offsets into `units`), appended to `out`.
static PetscErrorCode other_ranks_units(PetscMPIInt me, PetscInt nranks, const PetscMPIInt* ranks, const PetscInt* offset,
                                        const PetscInt* units, PetscInt* count, PetscInt** out) {
  PetscInt n = 0;
  PetscFunctionBeginUser;
  for (PetscInt r = 0; r < nranks; ++r)
    if (ranks[r] != me) n += offset[r + 1] - offset[r];
  PetscCall(PetscMalloc1(n, out));
  *count = 0;
  for (PetscInt r = 0; r < nranks; ++r) {
    if (ranks[r] == me) continue;
    for (PetscInt i = offset[r]; i < offset[r + 1]; ++i) (*out)[(*count)++] = units[i];
  }
  PetscFunctionReturn(0);
}

PetscErrorCode floors_create(DM da, PetscInt dof, PetscSF sf, Vec local, Floors* f) {
  PetscMPIInt me;
  PetscInt nranks, niranks, last_leaf, local_size;
  const PetscMPIInt *ranks, *iranks;
  const PetscInt *roffset, *rmine, *rremote, *ioffset, *irootloc;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)sf), &me));
  f->da = da;
  f->dof = dof;
  if (da) {
    PetscCall(DMDAGetCorners(da, &f->xs, &f->ys, &f->zs, &f->xm, &f->ym, &f->zm));
    PetscCall(DMDAGetGhostCorners(da, &f->gxs, &f->gys, &f->gzs, &f->gxm, &f->gym, &f->gzm));
  }
  // A DMDA's scatter moves points of dof values (its SF's unit is a block of them); the ring's, values.
  f->block = da ? dof : 1;
  PetscCall(PetscSFGetLeafRange(sf, NULL, &last_leaf));
  PetscCall(VecGetLocalSize(local, &local_size));
  PetscCheck((last_leaf + 1) * f->block <= local_size, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "pack floor: leaf %" PetscInt_FMT " of %" PetscInt_FMT " values is beyond the local vector's %" PetscInt_FMT,
             last_leaf, f->block, local_size);
  PetscCall(PetscSFGetRootRanks(sf, &nranks, &ranks, &roffset, &rmine, &rremote));
  PetscCall(PetscSFGetLeafRanks(sf, &niranks, &iranks, &ioffset, &irootloc));
  PetscCall(other_ranks_units(me, nranks, ranks, roffset, rmine, &f->nrecv, &f->recv));
  PetscCall(other_ranks_units(me, niranks, iranks, ioffset, irootloc, &f->nsend, &f->send));
  PetscCall(PetscMalloc1((f->nsend > f->nrecv ? f->nsend : f->nrecv) * f->block + 1, &f->buffer));
  PetscFunctionReturn(0);
}

PetscErrorCode floors_destroy(Floors* f) {
  PetscFunctionBeginUser;
  PetscCall(PetscFree(f->send));
  PetscCall(PetscFree(f->recv));
  PetscCall(PetscFree(f->buffer));
  PetscFunctionReturn(0);
}

// The owned block's rows, between the global vector (owned values only) and the local one (with
// ghosts): copied forward, added in reverse. Any SF type does this much for its self edges.
static void copy_rows(const Floors* f, PetscScalar* g, PetscScalar* l, PetscBool reverse) {
  const PetscInt row = f->xm * f->dof;
  for (PetscInt k = 0; k < f->zm; ++k)
    for (PetscInt j = 0; j < f->ym; ++j) {
      PetscScalar* owned = g + (k * f->ym + j) * row;
      PetscScalar* ghosted =
          l + (((k + f->zs - f->gzs) * f->gym + (j + f->ys - f->gys)) * f->gxm + (f->xs - f->gxs)) * f->dof;
      if (reverse)
        for (PetscInt i = 0; i < row; ++i) owned[i] += ghosted[i];
      else
        memcpy(ghosted, owned, (size_t)row * sizeof *owned);
    }
}

// Units at listed places to and from the dense buffer (add: into the listed places, adding). One
// value per unit (dof 1) has loops of its own: a copy of a run-time length per value would make the
// floor slower than the types it bounds.
static void pack(const PetscScalar* from, const PetscInt* units, PetscInt n, PetscInt block, PetscScalar* buffer) {
  if (block == 1)
    for (PetscInt i = 0; i < n; ++i) buffer[i] = from[units[i]];
  else
    for (PetscInt i = 0; i < n; ++i)
      for (PetscInt b = 0; b < block; ++b) buffer[i * block + b] = from[units[i] * block + b];
}
static void unpack(const PetscScalar* buffer, const PetscInt* units, PetscInt n, PetscInt block, PetscScalar* to,
                   PetscBool add) {
  if (block == 1 && add)
    for (PetscInt i = 0; i < n; ++i) to[units[i]] += buffer[i];
  else if (block == 1)
    for (PetscInt i = 0; i < n; ++i) to[units[i]] = buffer[i];
  else if (add)
    for (PetscInt i = 0; i < n; ++i)
      for (PetscInt b = 0; b < block; ++b) to[units[i] * block + b] += buffer[i * block + b];
  else
    for (PetscInt i = 0; i < n; ++i)
      for (PetscInt b = 0; b < block; ++b) to[units[i] * block + b] = buffer[i * block + b];
}

static PetscErrorCode floor_pass(const Floors* f, PetscBool with_pack, Vec global, Vec local, PetscBool reverse) {
  PetscScalar *g, *l;
  PetscFunctionBeginUser;
  PetscCall(VecGetArray(global, &g));
  PetscCall(VecGetArray(local, &l));
  if (f->da) copy_rows(f, g, l, reverse);
  if (with_pack && reverse) {
    pack(l, f->recv, f->nrecv, f->block, f->buffer);
    unpack(f->buffer, f->send, f->nsend, f->block, g, PETSC_TRUE);
  } else if (with_pack) {
    pack(g, f->send, f->nsend, f->block, f->buffer);
    unpack(f->buffer, f->recv, f->nrecv, f->block, l, PETSC_FALSE);
  } else if (!f->da) {  // the ring's copy floor: one copy of the message
    PetscInt leaves;
    PetscCall(VecGetLocalSize(local, &leaves));
    if (reverse)
      for (PetscInt i = 0; i < leaves; ++i) g[i] += l[i];
    else
      memcpy(l, g, (size_t)leaves * sizeof *l);
  }
  PetscCall(VecRestoreArray(local, &l));
  PetscCall(VecRestoreArray(global, &g));
  PetscFunctionReturn(0);
}

PetscErrorCode time_floor(const Floors* f, PetscBool pack_too, Vec global, Vec local, PetscBool reverse, PetscInt iters,
                          double* seconds) {
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  double start = MPI_Wtime();
  for (PetscInt k = 0; k < iters; ++k) PetscCall(floor_pass(f, pack_too, global, local, reverse));
  double mine = (MPI_Wtime() - start) / (double)iters;
  PetscCallMPI(MPI_Allreduce(&mine, seconds, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
  PetscFunctionReturn(0);
}
