// SPDX-License-Identifier: BSD-3-Clause
// visit.f90: VisIt output every visit_frequency steps and at the end. Each rank writes its chunk as
// a legacy VTK rectilinear grid, clover.<chunk>.<tile>.<step>.vtk (the reference's names: five
// digits each, tile 00001), with cell data density, energy, pressure, viscosity and node data
// x_vel, y_vel (values below 1e-8 in magnitude written as 0, as the reference does); rank 0 keeps
// the index clover.visit. Like the reference it first brings pressure and viscosity up to date,
// which changes nothing the next step computes.
//
// See docs/cloverleaf.md, "Output".
#pragma once

#include "chunk.hpp"
#include "halo.hpp"
#include "profile.hpp"

namespace cloverleaf {

void write_visit(Chunk& chunk, HaloUpdate& halo, Profile& profile, int step, bool first_call);

}  // namespace cloverleaf
