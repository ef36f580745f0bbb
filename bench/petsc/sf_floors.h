// SPDX-License-Identifier: BSD-3-Clause
// The floors gw-petsc-sf-bench times beside the PetscSF types, in the same rounds:
//  - copy-floor: this rank's owned values copied into (reverse: added from) its local vector, row
//    by row with memcpy: what any type does for its self edges (the ring: one copy of the message).
//  - pack-floor: the copy floor plus packing the units other ranks read from this rank into a
//    buffer and unpacking a buffer into the units this rank reads from others (reverse: packing the
//    leaves, adding into the roots), in one process with no message: what a type that packs does
//    besides moving its messages (docs/BENCHMARKS.md, "PetscSF").
#pragma once

#include <petscdmda.h>
#include <petscsf.h>

typedef struct {
  DM da;          // NULL: the ring of -run (no self edges)
  PetscInt dof;   // values per grid point
  // The DMDA's owned block (xs.., xm..) and ghosted block (gxs.., gxm..), taken once at creation.
  PetscInt xs, ys, zs, xm, ym, zm, gxs, gys, gzs, gxm, gym, gzm;
  PetscInt block; // scalars per unit of the SF
  PetscInt nsend, nrecv;
  PetscInt *send, *recv;  // units: my roots other ranks read, my leaves read from other ranks
  PetscScalar* buffer;    // max(nsend, nrecv) units
} Floors;

// From a set-up SF (its rank lists) whose leaves are `local`'s; not collective.
PetscErrorCode floors_create(DM da, PetscInt dof, PetscSF sf, Vec local, Floors* f);
PetscErrorCode floors_destroy(Floors* f);
// The slowest rank's seconds per pass for `iters` passes of the copy floor or (pack) the pack floor.
PetscErrorCode time_floor(const Floors* f, PetscBool pack, Vec global, Vec local, PetscBool reverse, PetscInt iters,
                          double* seconds);
