// SPDX-License-Identifier: BSD-3-Clause
// The reference's and METIS's partitions, and their owned and halo counts (partition.hpp) (see
// docs/cfdproxy.md, "Partitions").
#include "partition.hpp"

#include <metis.h>

#include <algorithm>
#include <limits>
#include <string>

namespace cfdproxy {
namespace {

// METIS draws random numbers while it coarsens and refines; a fixed seed makes it repeatable.
constexpr idx_t metis_seed = 0;

void check_parts(int parts, const char* function) {
  if (parts < 1) {
    throw MeshError(std::string(function) + ": parts " + std::to_string(parts) + "; expected at least 1");
  }
}

std::string metis_status_text(int status) {
  switch (status) {
    case METIS_ERROR_INPUT: return "METIS_ERROR_INPUT (an input error)";
    case METIS_ERROR_MEMORY: return "METIS_ERROR_MEMORY (out of memory)";
    default: return "METIS_ERROR (status " + std::to_string(status) + ")";
  }
}

}  // namespace

std::vector<std::int32_t> partition_original(const Mesh& mesh, int parts) {
  check_parts(parts, "partition_original");
  if (mesh.domains < 1 || mesh.domain.size() != static_cast<std::size_t>(mesh.points)) {
    throw MeshError("partition_original: the mesh has no original domains (domains " + std::to_string(mesh.domains) +
                    ", " + std::to_string(mesh.domain.size()) + " domain entries for " + std::to_string(mesh.points) +
                    " points)");
  }
  if (mesh.domains % parts != 0) {
    throw MeshError("partition_original: " + std::to_string(mesh.domains) + " domains cannot be split into " +
                    std::to_string(parts) + " parts of whole domains; expected a number of parts that divides " +
                    std::to_string(mesh.domains));
  }
  const int domains_per_part = mesh.domains / parts;
  std::vector<std::int32_t> part(mesh.domain.size());
  for (std::size_t p = 0; p < part.size(); ++p) {
    const std::int32_t domain = mesh.domain[p];
    if (domain < 0 || domain >= mesh.domains) {
      throw MeshError("partition_original: point " + std::to_string(p) + " has domain " + std::to_string(domain) +
                      ", outside [0, " + std::to_string(mesh.domains) + ")");
    }
    part[p] = domain / domains_per_part;
  }
  return part;
}

std::vector<std::int32_t> partition_metis(const Mesh& mesh, int parts) {
  check_parts(parts, "partition_metis");
  if (parts == 1) return std::vector<std::int32_t>(static_cast<std::size_t>(mesh.points), 0);
  constexpr auto idx_max = static_cast<std::int64_t>(std::numeric_limits<idx_t>::max());
  if (mesh.points > idx_max || 2 * static_cast<std::int64_t>(mesh.faces.size()) > idx_max) {
    throw MeshError("partition_metis: " + std::to_string(mesh.points) + " points and " +
                    std::to_string(mesh.faces.size()) + " faces exceed this METIS's " +
                    std::to_string(sizeof(idx_t) * 8) + "-bit indices");
  }
  if (parts > mesh.points) {
    throw MeshError("partition_metis: " + std::to_string(parts) + " parts for " + std::to_string(mesh.points) +
                    " points; expected at most one part per point");
  }

  // The point graph in compressed rows: both directions of every face.
  std::vector<idx_t> row_start(static_cast<std::size_t>(mesh.points) + 1, 0);
  for (const auto& face : mesh.faces) {
    if (face[0] < 0 || face[0] >= mesh.points || face[1] < 0 || face[1] >= mesh.points || face[0] == face[1]) {
      throw MeshError("partition_metis: face (" + std::to_string(face[0]) + ", " + std::to_string(face[1]) +
                      ") is not a pair of distinct points in [0, " + std::to_string(mesh.points) + ")");
    }
    ++row_start[static_cast<std::size_t>(face[0]) + 1];
    ++row_start[static_cast<std::size_t>(face[1]) + 1];
  }
  for (std::size_t p = 1; p < row_start.size(); ++p) row_start[p] += row_start[p - 1];
  std::vector<idx_t> neighbours(static_cast<std::size_t>(row_start.back()));
  std::vector<idx_t> fill(row_start.begin(), row_start.end() - 1);
  for (const auto& face : mesh.faces) {
    neighbours[static_cast<std::size_t>(fill[static_cast<std::size_t>(face[0])]++)] = static_cast<idx_t>(face[1]);
    neighbours[static_cast<std::size_t>(fill[static_cast<std::size_t>(face[1])]++)] = static_cast<idx_t>(face[0]);
  }

  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = metis_seed;
  idx_t vertices = static_cast<idx_t>(mesh.points);
  idx_t constraints = 1;
  idx_t part_count = parts;
  idx_t cut = 0;
  std::vector<idx_t> result(static_cast<std::size_t>(mesh.points));
  const int status = METIS_PartGraphKway(&vertices, &constraints, row_start.data(), neighbours.data(), nullptr,
                                         nullptr, nullptr, &part_count, nullptr, nullptr, options, &cut,
                                         result.data());
  if (status != METIS_OK) {
    throw MeshError("partition_metis: METIS_PartGraphKway failed for " + std::to_string(parts) + " parts of " +
                    std::to_string(mesh.points) + " points: " + metis_status_text(status));
  }

  std::vector<std::int32_t> part(result.begin(), result.end());
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(parts), 0);
  for (std::int32_t p : part) ++sizes[static_cast<std::size_t>(p)];
  const auto empty = std::find(sizes.begin(), sizes.end(), 0);
  if (empty != sizes.end()) {
    throw MeshError("partition_metis: METIS left part " + std::to_string(empty - sizes.begin()) + " of " +
                    std::to_string(parts) + " empty (" + std::to_string(mesh.points) + " points)");
  }
  return part;
}

std::vector<PartCounts> count_points(const Mesh& mesh, const std::vector<std::int32_t>& part, int parts) {
  check_parts(parts, "count_points");
  if (part.size() != static_cast<std::size_t>(mesh.points)) {
    throw MeshError("count_points: " + std::to_string(part.size()) + " part entries for " +
                    std::to_string(mesh.points) + " points; expected one per point");
  }
  std::vector<PartCounts> counts(static_cast<std::size_t>(parts));
  for (std::size_t p = 0; p < part.size(); ++p) {
    if (part[p] < 0 || part[p] >= parts) {
      throw MeshError("count_points: point " + std::to_string(p) + " is in part " + std::to_string(part[p]) +
                      ", outside [0, " + std::to_string(parts) + ")");
    }
    ++counts[static_cast<std::size_t>(part[p])].owned;
  }
  // (part, point) for every point a part needs but does not own; sorted, each distinct pair counts.
  std::vector<std::pair<std::int32_t, std::int64_t>> needed;
  for (const auto& face : mesh.faces) {
    const std::int32_t part0 = part[static_cast<std::size_t>(face[0])];
    const std::int32_t part1 = part[static_cast<std::size_t>(face[1])];
    if (part0 == part1) continue;
    needed.emplace_back(part0, face[1]);
    needed.emplace_back(part1, face[0]);
  }
  std::sort(needed.begin(), needed.end());
  needed.erase(std::unique(needed.begin(), needed.end()), needed.end());
  for (const auto& [owner, point] : needed) ++counts[static_cast<std::size_t>(owner)].halo;
  return counts;
}

}  // namespace cfdproxy
