// SPDX-License-Identifier: BSD-3-Clause
/* The Jacobi program of examples/porting/mpi_jacobi.cpp as a PETSc program: a DMDA (periodic in x,
 * open in y: the walls are the cells beyond it, held at 0), its ghost cells filled by
 * DMGlobalToLocal. Nothing in it names ghostwire: run with
 *   -dll_append <build>/bindings/petsc/libghostwire_petsc.so -sf_type ghostwire
 * every PetscSF of the run (the DMDA's scatter among them) is ghostwire's, and the checksum is the
 * MPI program's either way (docs/porting.md, docs/petsc.md).
 *
 *   scripts/launch -n 2 -- build/examples/porting_petsc_jacobi -dll_append ... -sf_type ghostwire */
#include <petscdmda.h>

enum { NX = 48, NY = 32, STEPS = 20 };

/* unew = (west + east + south + north) / 4 on the owned cells; south and north are 0 at the walls. */
static PetscErrorCode sweep(DM da, Vec local, Vec unew) {
  const PetscScalar** u;
  PetscScalar** v;
  PetscInt xs, ys, xm, ym;
  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  PetscCall(DMDAVecGetArrayRead(da, local, &u));
  PetscCall(DMDAVecGetArray(da, unew, &v));
  for (PetscInt y = ys; y < ys + ym; ++y)
    for (PetscInt x = xs; x < xs + xm; ++x) {
      const PetscScalar south = y > 0 ? u[y - 1][x] : 0.0, north = y < NY - 1 ? u[y + 1][x] : 0.0;
      v[y][x] = 0.25 * (u[y][x - 1] + u[y][x + 1] + south + north);
    }
  PetscCall(DMDAVecRestoreArray(da, unew, &v));
  PetscCall(DMDAVecRestoreArrayRead(da, local, &u));
  PetscFunctionReturn(0);
}

/* Sum over all cells of (1 + x + NX * y) * u, on every rank. */
static PetscErrorCode checksum(DM da, Vec global, PetscReal* sum) {
  const PetscScalar** u;
  PetscInt xs, ys, xm, ym;
  PetscReal local = 0;
  PetscFunctionBeginUser;
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  PetscCall(DMDAVecGetArrayRead(da, global, &u));
  for (PetscInt y = ys; y < ys + ym; ++y)
    for (PetscInt x = xs; x < xs + xm; ++x) local += (1.0 + x + NX * y) * u[y][x];
  PetscCall(DMDAVecRestoreArrayRead(da, global, &u));
  PetscCallMPI(MPI_Allreduce(&local, sum, 1, MPIU_REAL, MPI_SUM, PetscObjectComm((PetscObject)da)));
  PetscFunctionReturn(0);
}

int main(int argc, char** argv) {
  DM da;
  Vec u, unew, local;
  PetscScalar** a;
  PetscInt xs, ys, xm, ym;
  PetscReal sum;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(DMDACreate2d(PETSC_COMM_WORLD, DM_BOUNDARY_PERIODIC, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, NX, NY,
                         PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateGlobalVector(da, &u));
  PetscCall(VecDuplicate(u, &unew));
  PetscCall(DMCreateLocalVector(da, &local));
  PetscCall(DMDAGetCorners(da, &xs, &ys, NULL, &xm, &ym, NULL));
  PetscCall(DMDAVecGetArray(da, u, &a));
  for (PetscInt y = ys; y < ys + ym; ++y)
    for (PetscInt x = xs; x < xs + xm; ++x) a[y][x] = ((7 * x + 13 * y) % 17) / 16.0;
  PetscCall(DMDAVecRestoreArray(da, u, &a));
  for (int step = 0; step < STEPS; ++step) {
    PetscCall(DMGlobalToLocalBegin(da, u, INSERT_VALUES, local)); /* the halo exchange: a PetscSF */
    PetscCall(DMGlobalToLocalEnd(da, u, INSERT_VALUES, local));
    PetscCall(sweep(da, local, unew));
    Vec t = u;
    u = unew;
    unew = t;
  }
  PetscCall(checksum(da, u, &sum));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "petsc_jacobi: %d x %d, %d steps\nchecksum %.6f\n", NX, NY, STEPS,
                        (double)sum));
  PetscCall(VecDestroy(&local));
  PetscCall(VecDestroy(&unew));
  PetscCall(VecDestroy(&u));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}
