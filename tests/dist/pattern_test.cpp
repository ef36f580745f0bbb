// SPDX-License-Identifier: BSD-3-Clause
// TeamSpec, Pattern and Box against brute force: every pattern is also built by dealing blocks to
// ranks one by one (the definition), and every index map, extent and range must agree with it for
// many extents, team sizes and block sizes, uneven ones included. No MPI needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "ghostwire/dist/pattern.hpp"
#include "ghostwire/error.hpp"

using namespace ghostwire;

namespace {

// One dimension by definition: deal blocks of `block` elements round robin (BLOCKED deals one
// block of ceil(n / units) to each unit in turn).
struct Dealt {
  std::vector<int> unit;     // by global index
  std::vector<Index> local;  // by global index
  std::vector<Index> count;  // by unit
};

Dealt deal(Index n, int units, Distribution dist) {
  Index block = 1;
  switch (dist.kind) {
    case DistributionKind::blocked: block = std::max<Index>(1, (n + units - 1) / units); break;
    case DistributionKind::cyclic: block = 1; break;
    case DistributionKind::none: block = std::max<Index>(1, n); break;
    default: block = dist.block;
  }
  Dealt d;
  d.count.assign(static_cast<std::size_t>(units), 0);
  for (Index g = 0, k = 0; g < n; ++k) {
    int u = static_cast<int>(k % units);
    for (Index i = 0; i < block && g < n; ++i, ++g) {
      d.unit.push_back(u);
      d.local.push_back(d.count[static_cast<std::size_t>(u)]++);
    }
  }
  return d;
}

template <int N>
std::string name_of(const Pattern<N>& p) {
  return p.describe();
}

// Checks every map of a pattern against the dealt definition.
template <int N>
void check_pattern(const Point<N>& extents, const std::array<Distribution, N>& dists, const std::array<int, N>& team) {
  Pattern<N> p(extents, dists, TeamSpec<N>(team));
  SCOPED_TRACE(name_of(p));
  std::array<Dealt, N> dealt;
  for (int d = 0; d < N; ++d) dealt[d] = deal(extents[d], team[d], dists[d]);
  TeamSpec<N> ts(team);
  const bool tiled = dists[0].kind == DistributionKind::tile;

  // Local extents and sizes of every rank.
  for (int r = 0; r < ts.size(); ++r) {
    auto c = ts.coords(r);
    ASSERT_EQ(ts.rank(c), r);
    Index size = 1;
    auto e = p.local_extents(r);
    for (int d = 0; d < N; ++d) {
      ASSERT_EQ(e[d], dealt[d].count[static_cast<std::size_t>(c[d])]) << "rank " << r << " dimension " << d;
      size *= e[d];
    }
    ASSERT_EQ(p.local_size(r), size);
  }

  // Expected storage offset: row-major over local coordinates, or tile by tile.
  auto expected_offsets = [&](int r) {
    std::map<std::array<Index, N>, Index> offset;
    auto e = p.local_extents(r);
    Index total = 1;
    for (int d = 0; d < N; ++d) total *= e[d];
    if (total == 0) return offset;
    if (!tiled) {
      Index next = 0;
      std::array<Index, N> l{};
      for (;;) {
        offset[l] = next++;
        int d = N - 1;
        while (d >= 0 && ++l[d] == e[d]) l[d--] = 0;
        if (d < 0) break;
      }
      return offset;
    }
    std::array<Index, N> tiles{}, t{};
    for (int d = 0; d < N; ++d) tiles[d] = (e[d] + dists[d].block - 1) / dists[d].block;
    Index next = 0;
    for (;;) {
      std::array<Index, N> lo{}, te{}, i{};
      for (int d = 0; d < N; ++d) {
        lo[d] = t[d] * dists[d].block;
        te[d] = std::min(dists[d].block, e[d] - lo[d]);
      }
      for (;;) {
        std::array<Index, N> l{};
        for (int d = 0; d < N; ++d) l[d] = lo[d] + i[d];
        offset[l] = next++;
        int d = N - 1;
        while (d >= 0 && ++i[d] == te[d]) i[d--] = 0;
        if (d < 0) break;
      }
      int d = N - 1;
      while (d >= 0 && ++t[d] == tiles[d]) t[d--] = 0;
      if (d < 0) break;
    }
    return offset;
  };
  std::vector<std::map<std::array<Index, N>, Index>> offsets;
  for (int r = 0; r < ts.size(); ++r) offsets.push_back(expected_offsets(r));

  // Every global index: owner, local coordinates, storage offset, and back.
  Index total = 1;
  for (int d = 0; d < N; ++d) total *= extents[d];
  std::vector<std::set<Index>> seen(static_cast<std::size_t>(ts.size()));
  if (total > 0) {
    Point<N> g{};
    for (;;) {
      std::array<int, N> c{};
      Point<N> l{};
      for (int d = 0; d < N; ++d) {
        c[d] = dealt[d].unit[static_cast<std::size_t>(g[d])];
        l[d] = dealt[d].local[static_cast<std::size_t>(g[d])];
      }
      int r = ts.rank(c);
      ASSERT_EQ(p.owner(g), r);
      ASSERT_EQ(p.local_coords(g), l);
      ASSERT_EQ(p.global_coords(r, l), g);
      Index offset = offsets[static_cast<std::size_t>(r)].at(l);
      ASSERT_EQ(p.local_index(g), offset);
      ASSERT_EQ(p.global_coords(r, offset), g);
      ASSERT_TRUE(seen[static_cast<std::size_t>(r)].insert(offset).second);
      int d = N - 1;
      while (d >= 0 && ++g[d] == extents[d]) g[d--] = 0;
      if (d < 0) break;
    }
  }
  for (int r = 0; r < ts.size(); ++r) ASSERT_EQ(static_cast<Index>(seen[static_cast<std::size_t>(r)].size()), p.local_size(r));

  // local_range of a few global boxes, against the dealt local indices.
  std::vector<Box<N>> boxes;
  Box<N> all;
  all.extent = extents;
  boxes.push_back(all);
  Box<N> middle;
  for (int d = 0; d < N; ++d) {
    middle.low[d] = extents[d] / 3;
    middle.extent[d] = extents[d] / 2;
  }
  boxes.push_back(middle);
  Box<N> sliver;
  for (int d = 0; d < N; ++d) {
    sliver.low[d] = extents[d] > 0 ? extents[d] - 1 : 0;
    sliver.extent[d] = extents[d] > 0 ? 1 : 0;
  }
  boxes.push_back(sliver);
  for (const Box<N>& box : boxes)
    for (int r = 0; r < ts.size(); ++r) {
      auto c = ts.coords(r);
      Box<N> got = p.local_range(r, box);
      for (int d = 0; d < N; ++d) {
        Index lo = -1, hi = -1;
        for (Index g = box.low[d]; g < box.low[d] + box.extent[d]; ++g)
          if (dealt[d].unit[static_cast<std::size_t>(g)] == c[d]) {
            if (lo < 0) lo = dealt[d].local[static_cast<std::size_t>(g)];
            hi = dealt[d].local[static_cast<std::size_t>(g)] + 1;
          }
        if (lo < 0) {
          ASSERT_EQ(got.extent[d], 0) << "rank " << r << " dimension " << d;
        } else {
          ASSERT_EQ(got.low[d], lo) << "rank " << r << " dimension " << d;
          ASSERT_EQ(got.extent[d], hi - lo) << "rank " << r << " dimension " << d;
        }
      }
    }

  // Blocked patterns: one box per rank, covering exactly its cells.
  bool blocked = true;
  for (int d = 0; d < N; ++d)
    blocked &= dists[d].kind == DistributionKind::blocked || dists[d].kind == DistributionKind::none;
  ASSERT_EQ(p.blocked(), blocked);
  if (blocked)
    for (int r = 0; r < ts.size(); ++r) {
      Box<N> b = p.block(r);
      ASSERT_EQ(b.extent, p.local_extents(r));
      if (b.empty()) continue;
      ASSERT_EQ(p.owner(b.low), r);
      ASSERT_EQ(p.local_coords(b.low), Point<N>{});
    }
}

std::vector<Distribution> one_d_distributions() {
  return {BLOCKED, CYCLIC, BLOCKCYCLIC(1), BLOCKCYCLIC(2), BLOCKCYCLIC(3), BLOCKCYCLIC(5), TILE(2), TILE(4)};
}

TEST(Pattern, OneDimensionMatchesDealing) {
  for (Index n : {0, 1, 2, 3, 5, 7, 9, 10, 16, 17, 31, 64, 100})
    for (int units : {1, 2, 3, 4, 5, 7, 8, 12})
      for (Distribution dist : one_d_distributions()) check_pattern<1>({n}, {dist}, {units});
  for (Index n : {0, 1, 6, 11}) check_pattern<1>({n}, {NONE}, {1});
}

TEST(Pattern, TwoDimensionsMatchDealing) {
  const std::vector<Distribution> mixed = {BLOCKED, CYCLIC, BLOCKCYCLIC(3), NONE};
  for (Point<2> e : {Point<2>{0, 5}, Point<2>{1, 1}, Point<2>{7, 5}, Point<2>{10, 13}, Point<2>{16, 16}, Point<2>{3, 20}})
    for (std::array<int, 2> team : {std::array<int, 2>{1, 1}, {2, 1}, {1, 3}, {2, 2}, {3, 2}, {4, 3}}) {
      for (Distribution a : mixed)
        for (Distribution b : mixed) {
          if ((a.kind == DistributionKind::none && team[0] != 1) || (b.kind == DistributionKind::none && team[1] != 1))
            continue;
          check_pattern<2>(e, {a, b}, team);
        }
      for (Index t : {1, 2, 3}) check_pattern<2>(e, {TILE(t), TILE(t + 1)}, team);
    }
}

TEST(Pattern, ThreeDimensionsMatchDealing) {
  for (Point<3> e : {Point<3>{5, 4, 3}, Point<3>{9, 8, 7}, Point<3>{2, 11, 6}})
    for (std::array<int, 3> team : {std::array<int, 3>{1, 1, 1}, {2, 2, 2}, {3, 1, 2}, {1, 4, 1}}) {
      check_pattern<3>(e, {BLOCKED, BLOCKED, BLOCKED}, team);
      check_pattern<3>(e, {BLOCKCYCLIC(2), CYCLIC, BLOCKED}, team);
      check_pattern<3>(e, {TILE(2), TILE(3), TILE(2)}, team);
    }
}

TEST(Pattern, BlockedUnderfillsTheLastBlocks) {
  // 10 over 4 ranks: blocks of 3, the last underfilled; 9 over 4: the last rank owns nothing.
  Pattern<1> p({10}, {BLOCKED}, TeamSpec<1>({4}));
  EXPECT_EQ(p.local_extents(3)[0], 1);
  EXPECT_EQ(p.owner(9), 3);
  Pattern<1> q({9}, {BLOCKED}, TeamSpec<1>({4}));
  EXPECT_EQ(q.local_size(3), 0);
  EXPECT_EQ(q.block(3).low[0], 9);
}

TEST(TeamSpec, BalancedLikeMpiDimsCreate) {
  EXPECT_EQ(TeamSpec<2>::balanced(12).extents(), (std::array<int, 2>{4, 3}));
  EXPECT_EQ(TeamSpec<3>::balanced(12).extents(), (std::array<int, 3>{3, 2, 2}));
  EXPECT_EQ(TeamSpec<3>::balanced(16).extents(), (std::array<int, 3>{4, 2, 2}));
  EXPECT_EQ(TeamSpec<2>::balanced(7).extents(), (std::array<int, 2>{7, 1}));
  EXPECT_EQ(TeamSpec<1>::balanced(5).extents(), (std::array<int, 1>{5}));
  // Against brute force: the product is right, the factors do not increase, and no other
  // factorisation has a smaller largest factor.
  for (int ranks = 1; ranks <= 64; ++ranks)
    for (int dims : {2, 3}) {
      std::array<int, 3> t{1, 1, 1};
      if (dims == 2) {
        auto e = TeamSpec<2>::balanced(ranks).extents();
        t = {e[0], e[1], 1};
      } else {
        t = TeamSpec<3>::balanced(ranks).extents();
      }
      ASSERT_EQ(t[0] * t[1] * t[2], ranks);
      ASSERT_GE(t[0], t[1]);
      ASSERT_GE(t[1], t[2]);
      int best = ranks;
      for (int a = 1; a <= ranks; ++a)
        for (int b = 1; b <= ranks; ++b)
          if (ranks % (a * b) == 0 && (dims == 3 || a * b == ranks)) best = std::min(best, std::max({a, b, ranks / (a * b)}));
      ASSERT_EQ(t[0], best) << ranks << " ranks in " << dims << " dimensions";
    }
  TeamSpec<3> t({2, 3, 4});
  for (int r = 0; r < 24; ++r) EXPECT_EQ(t.rank(t.coords(r)), r);
  EXPECT_EQ(t.coords(5), (std::array<int, 3>{0, 1, 1}));  // row-major: the last coordinate is fastest
}

TEST(MakePattern, FewestGhostCells) {
  EXPECT_EQ(make_pattern<2>({1000, 10}, 4).team().extents(), (std::array<int, 2>{4, 1}));
  EXPECT_EQ(make_pattern<2>({10, 1000}, 4).team().extents(), (std::array<int, 2>{1, 4}));
  EXPECT_EQ(make_pattern<2>({1024, 1024}, 4).team().extents(), (std::array<int, 2>{2, 2}));
  EXPECT_EQ(make_pattern<2>({1024, 1024}, 2).team().extents(), (std::array<int, 2>{2, 1}));  // rows: contiguous faces
  EXPECT_EQ(make_pattern<3>({64, 64, 64}, 8).team().extents(), (std::array<int, 3>{2, 2, 2}));
  // Not more ranks in a dimension than it has cells, when that can be avoided.
  EXPECT_EQ(make_pattern<2>({2, 3}, 4).team().extents(), (std::array<int, 2>{2, 2}));
  EXPECT_EQ(make_pattern<2>({2, 100}, 4).team().extents(), (std::array<int, 2>{1, 4}));  // thin: split the long side
  auto p = make_pattern<2>({100, 100}, {NONE, BLOCKED}, 3);
  EXPECT_EQ(p.team().extents(), (std::array<int, 2>{1, 3}));
  for (int ranks = 1; ranks <= 24; ++ranks) {
    auto q = make_pattern<3>({30, 20, 10}, ranks);
    EXPECT_EQ(q.team().size(), ranks);
  }
}

TEST(Box, RimAndShrinkCoverTheBoxOnce) {
  for (Index a = 0; a <= 5; ++a)
    for (Index b = 0; b <= 6; ++b)
      for (Index depth = 0; depth <= 3; ++depth) {
        Box<2> box{{2, -1}, {a, b}};
        std::map<Point<2>, int> hits;
        Box<2> inner = box.shrink(depth);
        auto count = [&](const Box<2>& part) {
          for (Index i = part.low[0]; i < part.high()[0]; ++i)
            for (Index j = part.low[1]; j < part.high()[1]; ++j) {
              ASSERT_TRUE(box.contains({i, j}));
              ++hits[{i, j}];
            }
        };
        count(inner);
        for (const Box<2>& slab : box.rim(depth)) count(slab);
        ASSERT_EQ(static_cast<Index>(hits.size()), box.size()) << a << "x" << b << " depth " << depth;
        for (const auto& [cell, n] : hits) ASSERT_EQ(n, 1);
      }
}

#define EXPECT_ERROR(body, expected_code, fragment)                                                 \
  do {                                                                                             \
    try {                                                                                          \
      body;                                                                                        \
      ADD_FAILURE() << #body " did not throw";                                                     \
    } catch (const ghostwire::Error& e) {                                                          \
      EXPECT_EQ(e.code(), expected_code) << e.what();                                              \
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();              \
    }                                                                                              \
  } while (0)

TEST(Pattern, BadArgumentsAreNamed) {
  EXPECT_ERROR((Pattern<2>({4, -3}, {BLOCKED, BLOCKED}, TeamSpec<2>({1, 1}))), Errc::invalid_argument,
               "the extent of dimension 1 is -3; expected >= 0");
  EXPECT_ERROR((Pattern<2>({4, 4}, {NONE, BLOCKED}, TeamSpec<2>({2, 1}))), Errc::invalid_argument,
               "dimension 0 is NONE (not distributed) but the team has 2 ranks in it; expected 1");
  EXPECT_ERROR((Pattern<1>({4}, {BLOCKCYCLIC(0)}, TeamSpec<1>({2}))), Errc::invalid_argument,
               "BLOCKCYCLIC(0) in dimension 0: the block size is 0; expected >= 1");
  EXPECT_ERROR((Pattern<2>({4, 4}, {TILE(2), BLOCKED}, TeamSpec<2>({2, 1}))), Errc::invalid_argument,
               "TILE in some dimensions but BLOCKED in dimension 1; a tiled pattern needs TILE in every dimension");
  EXPECT_ERROR((TeamSpec<2>({2, 0})), Errc::invalid_argument, "the team extent of dimension 1 is 0; expected >= 1");
  EXPECT_ERROR(TeamSpec<2>::balanced(0), Errc::invalid_argument, "ranks is 0; expected >= 1");
  EXPECT_ERROR((make_pattern<2>({4, 4}, {NONE, NONE}, 2)), Errc::invalid_argument, "every dimension is NONE");
  Pattern<1> cyclic({8}, {CYCLIC}, TeamSpec<1>({2}));
  EXPECT_ERROR(cyclic.block(0), Errc::invalid_argument, "is not blocked");
}

}  // namespace
