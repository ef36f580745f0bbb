// SPDX-License-Identifier: BSD-3-Clause
// Partitions of a Mesh's points over parts (ranks): the reference's own domains, or METIS.
//
// A rank owns the points of its part and keeps copies of the halo ("add") points: the points of
// other parts that share a face with one of its own, whose values it must receive every exchange.
// Owned and halo counts per part are what a partition costs (count_points).
//
// See docs/cfdproxy.md, "Partitions".
#pragma once

#include <cstdint>
#include <vector>

#include "mesh.hpp"

namespace cfdproxy {

// Part of each global point, parts numbered 0..parts-1. Throws MeshError on bad input.

// Whole original domains: needs domains % parts == 0; part = domain / (domains / parts).
std::vector<std::int32_t> partition_original(const Mesh& mesh, int parts);

// METIS_PartGraphKway on the point graph (faces are its edges), unit weights, METIS's default
// options with a fixed seed so a mesh and a part count always give the same partition. One part:
// all zero without METIS. Throws if METIS fails or leaves a part empty.
std::vector<std::int32_t> partition_metis(const Mesh& mesh, int parts);

struct PartCounts {
  std::int64_t owned = 0;
  std::int64_t halo = 0;  // distinct points of other parts sharing a face with an owned point
};

// Per part. `part` must hold one value in [0, parts) per point.
std::vector<PartCounts> count_points(const Mesh& mesh, const std::vector<std::int32_t>& part, int parts);

}  // namespace cfdproxy
