// SPDX-License-Identifier: BSD-3-Clause
// One rank's part of the dual grid, laid out and ordered as the reference CFD-Proxy orders a domain:
// owned points first (in global id order), then halo points grouped by owner; faces sorted so that
// faces touching communicated points come first. The faces are divided among the rank's threads
// (thread_shares.cpp): each thread owns some points and sweeps, in that order, every face touching
// one of them, writing only its own points; its faces are cut into "colours" of 96, and for each
// colour the points whose first and last face it holds. A partner's send points are then final early
// in each thread's sweep, and its message can leave while later colours compute.
//
// See docs/cfdproxy.md, "How it works" and "Threads and colours".
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "mesh.hpp"

namespace cfdproxy {

inline constexpr int gradient_variables = 7;  // NGRAD of the reference
inline constexpr int flux_components = 3;
inline constexpr int faces_per_colour = 96;   // MAX_FACES_IN_COLOR of the reference

// Which of a face's points the thread sweeping it writes.
inline constexpr std::uint8_t writes_first = 1, writes_second = 2, writes_both = 3;

struct Colour {
  std::int32_t face_begin = 0, face_end = 0;    // into Share::faces
  std::int32_t first_begin = 0, first_end = 0;  // into Share::first_points
  std::int32_t last_begin = 0, last_end = 0;    // into Share::last_points
  bool one_sided = false;                       // holds a face of which the thread writes one point
};

// What one thread sweeps: every face touching one of its points, in the rank's face order (so each
// point receives its faces' contributions in the same order whatever the thread count), cut into
// colours. A face between two threads' points is in both shares, each writing its own point.
struct Share {
  std::vector<std::array<std::int32_t, 2>> faces;  // local point ids
  std::vector<std::array<double, 3>> normals;
  std::vector<std::uint8_t> writes;                // per face: writes_first | writes_second
  std::vector<std::int32_t> rank_face;             // per face: its index in LocalDomain::faces
  std::vector<Colour> colours;
  std::vector<std::int32_t> first_points, last_points;  // of this thread's points only
};

struct Partner {
  int rank = -1;
  std::vector<std::int32_t> send_points;   // local ids of owned points, in the partner's halo order
  std::int32_t halo_begin = 0, halo_count = 0;  // this partner's points in my halo (contiguous)
  // Per thread: the colour of its share after which every one of its send points to this partner
  // is final; -1 if it owns none of them.
  std::vector<std::int32_t> send_after_colour;
};

struct LocalDomain {
  int rank = 0;
  std::int32_t owned = 0, all = 0;                  // points [0, owned) owned, [owned, all) halo
  std::vector<std::int64_t> global_id;              // by local id
  std::vector<double> volume;                       // by local id
  std::vector<std::int32_t> colour;                 // by local id: the point's Mesh::colour
  std::vector<std::array<std::int32_t, 2>> faces;   // local ids, in the reference's order
  std::vector<std::array<double, 3>> normals;
  std::vector<std::int32_t> thread;                 // by local id: the thread that writes the point
  std::vector<Share> shares;                        // by thread
  std::vector<Partner> partners;                    // by rank, ascending
  int threads() const { return static_cast<int>(shares.size()); }
};

// `part[g]` is the rank owning global point g; the faces divided among `threads` threads
// (divide_among_threads). Throws if `rank` owns no point.
LocalDomain build_local_domain(const Mesh& mesh, const std::vector<std::int32_t>& part, int rank, int threads = 1);

// (Re)divides d's points and faces among `threads` threads (thread_shares.cpp): owned points in
// colour order cut into runs of about equal face counts, each halo point with the owned point of
// its first face. One thread: the reference's single sweep. Throws for threads < 1.
void divide_among_threads(LocalDomain& d, int threads);

}  // namespace cfdproxy
