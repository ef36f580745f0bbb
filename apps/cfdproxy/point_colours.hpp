// SPDX-License-Identifier: BSD-3-Clause
// Point colours: the groups of points a rank's threads are made of (Mesh::colour).
//
// The reference's domain files carry fcolor_npoints(ncolors) and fcolor_points(nallpoints): each
// domain's points cut into groups of nearby points. The reference's threaded solver (the EXA2CT
// release, PGAS-community-benchmarks/CFD-Proxy) gives each thread a run of consecutive colours as its
// thread domain, and a thread writes only its own points. So the files' colours are groups of points
// for cache blocking and threads, not sets of faces that can be swept at the same time.
//
// Mesh::colour numbers them globally: domain by domain, then the file's colour within its domain (the
// owner's file decides; halo copies are ignored). A mesh without them (generated meshes, files
// written without the variables) gets computed colours of the same kind: each original domain's
// points in the order of a breadth-first walk through the point graph (seeds and neighbours in
// ascending id), cut every `points_per_colour` points. Both are deterministic.
//
// See docs/cfdproxy.md, "Threads and colours".
#pragma once

#include <cstdint>

#include "mesh.hpp"

namespace cfdproxy {

// About the F6 files' colours: 42 owned points at the median, 95 at the 90th percentile.
inline constexpr std::int32_t computed_colour_points = 64;

// Sets mesh.colour, mesh.colours and mesh.colour_source = "computed". Needs mesh.domain. Throws
// MeshError for points_per_colour < 1.
void compute_point_colours(Mesh& mesh, std::int32_t points_per_colour = computed_colour_points);

}  // namespace cfdproxy
