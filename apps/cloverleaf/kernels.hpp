// SPDX-License-Identifier: BSD-3-Clause
// The reference's kernels (kernels/*_kernel.f90), one file each, as plain loops over the chunk's
// Grids. Loop bounds are the reference's with its 1-based x_min = 1 as 0 (chunk.x_min ... x_max =
// nx - 1), and every expression keeps the reference's operation order and literal precision, so
// a cell's value is the reference's to the last bit (built without fused multiply-adds).
//
// See docs/cloverleaf.md, "Kernels and exactness".
#pragma once

#include <vector>

#include "chunk.hpp"
#include "deck.hpp"

namespace cloverleaf {

// initialise_chunk: coordinates, cell sizes, volumes and face areas of this chunk.
void initialise_chunk(Chunk& c, const Deck& deck);
// generate_chunk: the states painted onto the mesh (state 1 everywhere, then each later state over
// its rectangle, circle or point), ghost cells included.
void generate_chunk(Chunk& c, const Deck& deck);
// ideal_gas: pressure and sound speed from density and energy (0 or, when predicting, 1).
void ideal_gas(Chunk& c, bool predict);
// viscosity: the artificial viscosity from velocity and pressure gradients.
void viscosity(Chunk& c);

// calc_dt: the smallest stable timestep of this chunk and what limits it.
enum class DtControl : int { sound = 1, xvel = 2, yvel = 3, div = 4 };
const char* control_name(DtControl c);
struct DtResult {
  double dt = 0;
  DtControl control = DtControl::sound;
  Index j = 0, k = 0;  // the limiting cell, local
  double x = 0, y = 0; // its centre
};
DtResult calc_dt(Chunk& c, const Deck& deck);

// PdV: energy and density after the volume change (predictor: half step with velocity 0 only).
void pdv(Chunk& c, bool predict, double dt);
// revert: density1, energy1 back to the step's start (after the predictor).
void revert(Chunk& c);
// accelerate: velocities after the pressure and viscosity forces.
void accelerate(Chunk& c, double dt);
// flux_calc: the volume fluxes through the faces.
void flux_calc(Chunk& c, double dt);
// advec_cell: mass, energy and volume advected in one direction (1 = x, 2 = y), sweep 1 or 2.
void advec_cell(Chunk& c, int direction, int sweep_number);
// advec_mom: one velocity component (1 = x, 2 = y) advected in one direction.
void advec_mom(Chunk& c, int which_vel, int direction, int sweep_number);
// reset_field: the step's results become the next step's start.
void reset_field(Chunk& c);

// field_summary_kernel: this chunk's volume, mass, internal and kinetic energy and pressure x volume.
struct FieldSums {
  double vol = 0, mass = 0, ie = 0, ke = 0, press = 0;
};
FieldSums field_summary_kernel(Chunk& c);

// update_halo_kernel: reflective boundary conditions on the chunk faces that are the mesh's edge,
// for the fields of `fields` to `depth`, including the ghost rows and columns already filled.
void reflect_boundaries(Chunk& c, FieldMask fields, int depth);

}  // namespace cloverleaf
