// SPDX-License-Identifier: BSD-3-Clause
// How a rank's faces are divided among threads (thread_shares.cpp, local_domain.hpp), on METIS parts
// of a generated mesh at 1 to 5 threads:
//   - every point is written by exactly one thread, and every (face, point) update is done exactly
//     once, by the share of the point's thread: shares never write the same point, so they can run
//     at the same time (the threads' "conflict-free" property);
//   - each share keeps the rank's face order, so every point gets its updates in the same order at
//     any thread count; with one thread the share is the reference's single sweep;
//   - colours: at most 96 faces, covering the share; each own point zeroed in its first colour and
//     scaled in its last, exactly once; the schedule's colour after which a partner's points are final;
//   - the kernels, run share after share in any order, give the one-thread result bit for bit, and
//     a share missing one face does not (so the comparison can fail).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernel.hpp"
#include "local_domain.hpp"
#include "mesh.hpp"
#include "partition.hpp"

namespace cfdproxy {
namespace {

constexpr int parts = 3;

struct Case {
  Mesh mesh = generate_mesh(4000);
  std::vector<std::int32_t> part = partition_metis(mesh, parts);
};

const Case& the_case() {
  static const Case c;
  return c;
}

void expect_each_update_once(const LocalDomain& d) {
  std::vector<int> updates(d.faces.size() * 2, 0);  // (face, end) -> how many shares write it
  for (int t = 0; t < d.threads(); ++t) {
    const Share& s = d.shares[static_cast<std::size_t>(t)];
    ASSERT_EQ(s.faces.size(), s.writes.size());
    ASSERT_EQ(s.faces.size(), s.rank_face.size());
    for (std::size_t k = 0; k < s.faces.size(); ++k) {
      const auto f = static_cast<std::size_t>(s.rank_face[k]);
      ASSERT_EQ(s.faces[k], d.faces[f]);
      ASSERT_EQ(s.normals[k], d.normals[f]);
      if (k > 0) {
        ASSERT_LT(s.rank_face[k - 1], s.rank_face[k]) << "share " << t << " leaves the rank's order";
      }
      for (int end = 0; end < 2; ++end) {
        const bool writes = s.writes[k] & (end == 0 ? writes_first : writes_second);
        const std::int32_t p = s.faces[k][static_cast<std::size_t>(end)];
        EXPECT_EQ(writes, d.thread[static_cast<std::size_t>(p)] == t) << "share " << t << " face " << f;
        if (writes) ++updates[2 * f + static_cast<std::size_t>(end)];
      }
    }
  }
  for (std::size_t u = 0; u < updates.size(); ++u) ASSERT_EQ(updates[u], 1) << "face " << u / 2 << " end " << u % 2;
}

void expect_colours(const LocalDomain& d) {
  for (int t = 0; t < d.threads(); ++t) {
    const Share& s = d.shares[static_cast<std::size_t>(t)];
    std::int32_t next = 0;
    std::vector<int> first(static_cast<std::size_t>(d.all), -1), last(first), zeroed(first.size(), 0), scaled(zeroed);
    for (std::size_t c = 0; c < s.colours.size(); ++c) {
      const Colour& colour = s.colours[c];
      EXPECT_EQ(colour.face_begin, next);
      EXPECT_LE(colour.face_end - colour.face_begin, faces_per_colour);
      bool one_sided = false;
      for (std::int32_t f = colour.face_begin; f < colour.face_end; ++f) {
        one_sided |= s.writes[static_cast<std::size_t>(f)] != writes_both;
        for (std::int32_t p : s.faces[static_cast<std::size_t>(f)]) {
          if (d.thread[static_cast<std::size_t>(p)] != t) continue;
          if (first[static_cast<std::size_t>(p)] < 0) first[static_cast<std::size_t>(p)] = static_cast<int>(c);
          last[static_cast<std::size_t>(p)] = static_cast<int>(c);
        }
      }
      EXPECT_EQ(colour.one_sided, one_sided);
      next = colour.face_end;
    }
    EXPECT_EQ(next, static_cast<std::int32_t>(s.faces.size()));
    for (std::size_t c = 0; c < s.colours.size(); ++c) {
      for (std::int32_t i = s.colours[c].first_begin; i < s.colours[c].first_end; ++i) {
        const auto p = static_cast<std::size_t>(s.first_points[static_cast<std::size_t>(i)]);
        EXPECT_EQ(first[p], static_cast<int>(c));
        ++zeroed[p];
      }
      for (std::int32_t i = s.colours[c].last_begin; i < s.colours[c].last_end; ++i) {
        const auto p = static_cast<std::size_t>(s.last_points[static_cast<std::size_t>(i)]);
        EXPECT_EQ(last[p], static_cast<int>(c));
        ++scaled[p];
      }
    }
    for (std::int32_t p = 0; p < d.all; ++p)
      if (d.thread[static_cast<std::size_t>(p)] == t) {
        EXPECT_EQ(zeroed[static_cast<std::size_t>(p)], 1) << "point " << p << " of thread " << t;
        EXPECT_EQ(scaled[static_cast<std::size_t>(p)], 1) << "point " << p << " of thread " << t;
      }
    for (const Partner& partner : d.partners) {
      int after = -1;
      for (std::int32_t p : partner.send_points)
        if (d.thread[static_cast<std::size_t>(p)] == t) after = std::max(after, last[static_cast<std::size_t>(p)]);
      EXPECT_EQ(partner.send_after_colour[static_cast<std::size_t>(t)], after) << "partner " << partner.rank;
    }
  }
}

TEST(ThreadShares, EveryUpdateOnceByThePointsThread) {
  for (int rank = 0; rank < parts; ++rank)
    for (int threads : {1, 2, 3, 5}) {
      SCOPED_TRACE("rank " + std::to_string(rank) + ", " + std::to_string(threads) + " threads");
      const LocalDomain d = build_local_domain(the_case().mesh, the_case().part, rank, threads);
      ASSERT_EQ(d.threads(), threads);
      for (std::int32_t t : d.thread) ASSERT_TRUE(t >= 0 && t < threads);
      expect_each_update_once(d);
      expect_colours(d);
    }
}

TEST(ThreadShares, OneThreadIsTheReferenceSweep) {
  const LocalDomain d = build_local_domain(the_case().mesh, the_case().part, 1, 1);
  ASSERT_EQ(d.shares.size(), 1u);
  const Share& s = d.shares[0];
  EXPECT_EQ(s.faces, d.faces);
  EXPECT_TRUE(std::all_of(s.writes.begin(), s.writes.end(), [](std::uint8_t w) { return w == writes_both; }));
  EXPECT_EQ(s.colours.size(), (d.faces.size() + faces_per_colour - 1) / faces_per_colour);
}

TEST(ThreadShares, BalancedAndFewSharedFaces) {
  const LocalDomain d = build_local_domain(the_case().mesh, the_case().part, 0, 4);
  std::size_t swept = 0, least = d.faces.size(), most = 0;
  for (const Share& s : d.shares) {
    swept += s.faces.size();
    least = std::min(least, s.faces.size());
    most = std::max(most, s.faces.size());
  }
  // Runs of breadth-first colours: compact pieces, so few faces are swept twice.
  EXPECT_LT(static_cast<double>(swept - d.faces.size()), 0.25 * static_cast<double>(d.faces.size()));
  EXPECT_LT(static_cast<double>(most), 1.5 * static_cast<double>(least));
}

TEST(ThreadShares, RejectsNoThreads) {
  EXPECT_THROW(build_local_domain(the_case().mesh, the_case().part, 0, 0), std::invalid_argument);
}

// Gradient then flux, share after share in the given order; grad and flux of every local point.
std::vector<double> sweep(const LocalDomain& d, const std::vector<int>& order) {
  std::vector<double> var(static_cast<std::size_t>(d.all) * gradient_variables);
  for (std::size_t k = 0; k < var.size(); ++k)
    var[k] = 1.0 + static_cast<double>((d.global_id[k / gradient_variables] * 2654435761ull + k % 7 * 40503ull) % 1000003) /
                       1000003.0;
  std::vector<double> grad(static_cast<std::size_t>(d.all) * gradient_variables * 3, 1.0);
  std::vector<double> flux(static_cast<std::size_t>(d.all) * flux_components, 1.0);
  for (int t : order)
    for (const Colour& c : d.shares[static_cast<std::size_t>(t)].colours)
      gradient_colour(d, d.shares[static_cast<std::size_t>(t)], c, var.data(), grad.data());
  for (int t : order)
    for (const Colour& c : d.shares[static_cast<std::size_t>(t)].colours)
      flux_colour(d.shares[static_cast<std::size_t>(t)], c, grad.data(), flux.data());
  grad.insert(grad.end(), flux.begin(), flux.end());
  return grad;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST(ThreadShares, KernelsGiveTheOneThreadBits) {
  for (int rank = 0; rank < parts; ++rank) {
    const std::vector<double> one = sweep(build_local_domain(the_case().mesh, the_case().part, rank, 1), {0});
    for (int threads : {2, 3, 4}) {
      const LocalDomain d = build_local_domain(the_case().mesh, the_case().part, rank, threads);
      std::vector<int> forwards(static_cast<std::size_t>(threads)), backwards;
      for (int t = 0; t < threads; ++t) forwards[static_cast<std::size_t>(t)] = t;
      backwards.assign(forwards.rbegin(), forwards.rend());
      EXPECT_TRUE(same_bits(sweep(d, forwards), one)) << "rank " << rank << ", " << threads << " threads";
      EXPECT_TRUE(same_bits(sweep(d, backwards), one)) << "rank " << rank << ", " << threads << " threads, backwards";
    }
  }
}

TEST(ThreadShares, AMissingFaceChangesTheBits) {
  const std::vector<double> one = sweep(build_local_domain(the_case().mesh, the_case().part, 0, 1), {0});
  LocalDomain d = build_local_domain(the_case().mesh, the_case().part, 0, 2);
  Share& s = d.shares[1];
  s.faces[0] = s.faces[1];  // the first face replaced by a copy of the second
  s.normals[0] = s.normals[1];
  EXPECT_FALSE(same_bits(sweep(d, {0, 1}), one));
}

}  // namespace
}  // namespace cfdproxy
