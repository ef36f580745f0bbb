// SPDX-License-Identifier: BSD-3-Clause
// Mesh: CFD-Proxy's unstructured dual grid as one global graph. Points are the control volumes
// (dual cells), faces are the edges between them; the kernels loop over faces and add a face's
// contribution to both of its points (+ to the first, - to the second), which is why a face carries
// an oriented, area-weighted normal and why it must exist exactly once in the whole mesh.
//
// Two sources: the pre-partitioned DLR-F6 files of the reference code (read_domain_files,
// mesh_reader.cpp), reassembled into global numbering so any partition can be cut from them, and a
// generated mesh of the same structure and any size (generate_mesh, mesh_generator.cpp).
//
// See docs/cfdproxy.md, "Meshes and partitions".
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace cfdproxy {

struct Mesh {
  std::int64_t points = 0;                         // global points, ids 0..points-1
  std::vector<std::array<std::int64_t, 2>> faces;  // global ids (p0, p1), p0 != p1
  std::vector<std::array<double, 3>> normals;      // per face, area-weighted, oriented p0 -> p1
  std::vector<double> volumes;                     // per point (dual-cell volume)
  std::vector<std::int32_t> domain;                // original domain of each point
  int domains = 0;
  std::string description;                         // e.g. "DLR-F6 dual grid (48 domains, ...)"
  // Point colours (point_colours.hpp): groups of nearby points of one original domain, numbered
  // domain by domain; a rank's threads take runs of them. From the domain files' fcolor_points
  // where every file has them, else computed.
  std::vector<std::int32_t> colour;                // per point, in [0, colours)
  std::int32_t colours = 0;
  std::string colour_source;                       // "file" or "computed"
};

// A mesh input that cannot be used: names the file (or spec) and what is wrong with it.
class MeshError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What the reassembly of pre-partitioned files found (the data's quality, for reports and tests).
struct ReassemblyStats {
  std::int64_t face_entries = 0;        // faces listed over all files, duplicates included
  std::int64_t merged_duplicates = 0;   // entries dropped because an earlier file listed the face
  std::int64_t swapped_duplicates = 0;  // of those, listed with the points the other way round
  double max_normal_mismatch = 0;       // largest |n_dup - n_kept| / |n_kept| after orientation
  double max_volume_mismatch = 0;       // largest |v_halo - v_owner| / |v_owner|
};

// The domain files `<prefix>_domain_<d>_lvl_<L>`, d = 0..ndomains-1, reassembled into one mesh with
// global ids offset[d] + local index (offset[d] = owned points of the domains before d). `path` is
// the reference's grid prefix (the level is the one L in 1..4 whose domain 0 file exists), one of
// the files (which fixes prefix and level), or a directory holding one prefix and level.
// Throws MeshError.
Mesh read_domain_files(const std::string& path);
Mesh read_domain_files(const std::string& path, ReassemblyStats& stats);

// A deterministic tetrahedral lattice mesh of the unit cube with about `approximate_points` points
// (n = round(cbrt(N)) per side, at least 2), its median-dual faces, normals and volumes, the points
// numbered in a scrambled order and `domains` slabs along z. See mesh_generator.cpp. Throws
// MeshError for a size or domain count it cannot make.
Mesh generate_mesh(std::int64_t approximate_points, int domains = 48);
// The same, also giving every point's position (indexed by point id), for checks and pictures.
Mesh generate_mesh(std::int64_t approximate_points, int domains, std::vector<std::array<double, 3>>& positions);

// "generated:N" -> generate_mesh(N); anything else is a path for read_domain_files. Throws MeshError.
Mesh load_mesh(const std::string& spec);

}  // namespace cfdproxy
