// SPDX-License-Identifier: BSD-3-Clause
// One rank's part of the dual grid, laid out and ordered as the reference CFD-Proxy orders a domain:
// owned points first (in global id order), then halo points grouped by owner; faces sorted so that
// faces touching communicated points come first, cut into "colours" of 96 faces, and for each
// colour the points whose first and last face it holds. A partner's send points are then final
// early in the gradient's face loop, and its message can leave while later colours compute.
//
// See docs/cfdproxy.md, "How it works".
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "mesh.hpp"

namespace cfdproxy {

inline constexpr int gradient_variables = 7;  // NGRAD of the reference
inline constexpr int flux_components = 3;
inline constexpr int faces_per_colour = 96;   // MAX_FACES_IN_COLOR of the reference

struct Colour {
  std::int32_t face_begin = 0, face_end = 0;
  std::int32_t first_begin = 0, first_end = 0;  // into LocalDomain::first_points
  std::int32_t last_begin = 0, last_end = 0;    // into LocalDomain::last_points
};

struct Partner {
  int rank = -1;
  std::vector<std::int32_t> send_points;   // local ids of owned points, in the partner's halo order
  std::int32_t halo_begin = 0, halo_count = 0;  // this partner's points in my halo (contiguous)
  std::int32_t send_after_colour = -1;     // the colour after which every send point is final
};

struct LocalDomain {
  int rank = 0;
  std::int32_t owned = 0, all = 0;                  // points [0, owned) owned, [owned, all) halo
  std::vector<std::int64_t> global_id;              // by local id
  std::vector<double> volume;                       // by local id
  std::vector<std::array<std::int32_t, 2>> faces;   // local ids, in the reference's order
  std::vector<std::array<double, 3>> normals;
  std::vector<Colour> colours;
  std::vector<std::int32_t> first_points, last_points;
  std::vector<Partner> partners;                    // by rank, ascending
};

// `part[g]` is the rank owning global point g. Throws if `rank` owns no point.
LocalDomain build_local_domain(const Mesh& mesh, const std::vector<std::int32_t>& part, int rank);

}  // namespace cfdproxy
