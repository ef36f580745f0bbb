// SPDX-License-Identifier: BSD-3-Clause
// Staggered fields in one halo update: grids of one pattern with different halos (widths, stencils,
// boundaries), each filling a chosen part of its halo (HaloDepth). The grids of a case are those of
// CloverLeaf's chunk: cell fields (width 2), node fields (width 3: a chunk owns nodes 0..n-1 of its
// cells, and depth d fills the low ghosts -1..-d from the neighbour's nodes n'-1..n'-d and the high
// ghosts n..n+d from its nodes 0..d, so low d, high d + 1), a face field per dimension (node-like
// in its own dimension, cell-like in the others), one with an odd asymmetric part and zero layers on
// some sides, and one taking its whole halo with the other boundary in dimension 0.
//
// After every update each ghost cell of the requested part holds the value of the cell it mirrors
// (its global index, a round and the grid's number), every other ghost cell keeps its sentinel (the
// layers outside the part, edges and corners with Stencil::faces, beyond an open boundary), and
// owned cells are unchanged: one wrong or extra cell fails the case.
#include <cstdint>
#include <memory>
#include <sstream>

#include "ghostwire/dist.hpp"
#include "mpi_test_main.hpp"
#include "padded_block.hpp"

using namespace ghostwire;

namespace {

constexpr double sentinel = -1.0;
using Triple = std::array<Index, 3>;

struct StaggeredCase {
  int dimensions;
  Triple extents;
  std::array<bool, 3> periodic;
  Stencil cells, nodes;  // the stencils of the cell-like and of the node-like grids
  int team_layout;       // 0: make_pattern; 1: all ranks in dimension 0; 2: all ranks in the last dimension
  std::string name() const {
    std::ostringstream text;
    text << dimensions << "d";
    for (int d = 0; d < dimensions; ++d) text << (d ? "x" : "_") << extents[d];
    text << "_";
    for (int d = 0; d < dimensions; ++d) text << (periodic[d] ? "p" : "o");
    auto shape = [](Stencil s) { return s == Stencil::faces ? "faces" : "full"; };
    text << "_" << shape(cells) << "_" << shape(nodes) << "_team" << team_layout;
    return text.str();
  }
};

// The ghost layers an update fills: per dimension, low and high.
struct Layers {
  Triple low{}, high{};
};

// One grid of a case: its halo, and the layers an update of depth d asks for.
struct Role {
  std::string name;
  Triple width{};
  Stencil stencil = Stencil::faces;
  bool flip_boundary_0 = false;  // the other boundary than the case's in dimension 0
  bool integer = false;          // std::int64_t instead of double
  enum class Kind { cell, node, face, odd, whole } kind = Kind::cell;
  int face = 0;  // kind face: the dimension it is node-like in

  // What update of depth d fills, as the grid's layers, and the HaloDepth that asks for it.
  Layers layers(int n, Index d) const {
    Layers l;
    for (int k = 0; k < n; ++k) {
      switch (kind) {
        case Kind::cell:
          l.low[k] = l.high[k] = d;
          break;
        case Kind::node:
          l.low[k] = d, l.high[k] = d + 1;
          break;
        case Kind::face:
          l.low[k] = d, l.high[k] = k == face ? d + 1 : d;
          break;
        case Kind::odd: {
          const Triple low{0, 1, 2}, high{d, 0, 1};
          l.low[k] = low[k], l.high[k] = high[k];
          break;
        }
        case Kind::whole:
          l.low[k] = l.high[k] = width[k];
          break;
      }
    }
    return l;
  }
  template <int N>
  HaloDepth depth(Index d) const {
    const Layers l = layers(N, d);
    Point<N> low{}, high{};
    for (int k = 0; k < N; ++k) low[k] = l.low[k], high[k] = l.high[k];
    switch (kind) {  // each way of writing a depth
      case Kind::cell:
        return HaloDepth(d);
      case Kind::node:
        return HaloDepth::low_high(low, high);
      case Kind::face:
        return HaloDepth::low_high(std::span<const Index>(l.low.data(), N), std::span<const Index>(l.high.data(), N));
      case Kind::odd:
        return HaloDepth::low_high(low, high);
      case Kind::whole:
        return HaloDepth();
    }
    return HaloDepth();
  }
};

std::vector<Role> roles(int n) {
  std::vector<Role> r;
  r.push_back({"cell", {2, 2, 2}, Stencil::faces, false, false, Role::Kind::cell, 0});
  r.push_back({"node", {3, 3, 3}, Stencil::faces, false, false, Role::Kind::node, 0});
  for (int k = 0; k < n; ++k) {
    Triple width{2, 2, 2};
    width[k] = 3;
    r.push_back({"face" + std::to_string(k), width, Stencil::faces, false, true, Role::Kind::face, k});
  }
  r.push_back({"odd", {2, 1, 2}, Stencil::full, false, false, Role::Kind::odd, 0});
  r.push_back({"whole", {1, 2, 1}, Stencil::faces, true, true, Role::Kind::whole, 0});
  return r;
}

template <int N>
Pattern<N> pattern_for(const StaggeredCase& c, int ranks) {
  Point<N> e{};
  for (int d = 0; d < N; ++d) e[d] = c.extents[d];
  if (c.team_layout == 0) return make_pattern<N>(e, ranks);
  std::array<int, N> team;
  team.fill(1);
  team[c.team_layout == 1 ? 0 : N - 1] = ranks;
  std::array<Distribution, N> blocked;
  blocked.fill(BLOCKED);
  return Pattern<N>(e, blocked, TeamSpec<N>(team));
}

// A grid of either element type, with what its role says about it.
template <int N>
struct TestGrid {
  Role role;
  int index = 0;
  std::array<bool, 3> periodic{};
  Stencil stencil = Stencil::faces;
  std::unique_ptr<Grid<double, N>> real;
  std::unique_ptr<Grid<std::int64_t, N>> integer;

  GridBase* base() const { return real ? static_cast<GridBase*>(real.get()) : integer.get(); }
};

// The value of local cell l of a grid after round `round`, given the layers filled (nullptr:
// before the update, every ghost cell a sentinel).
template <int N>
double expected(const Point<N>& extents, const Point<N>& offset, const Point<N>& local_extent, const TestGrid<N>& t,
                const Layers* filled, const Point<N>& l, int round) {
  int sides = 0;
  for (int d = 0; d < N; ++d) {
    bool below = l[d] < 0, above = l[d] >= local_extent[d];
    sides += below || above;
    if (!filled && (below || above)) return sentinel;
    if (below && l[d] < -filled->low[d]) return sentinel;
    if (above && l[d] >= local_extent[d] + filled->high[d]) return sentinel;
  }
  if (sides > 1 && t.stencil == Stencil::faces) return sentinel;
  double linear = 0;
  for (int d = 0; d < N; ++d) {
    Index g = l[d] + offset[d];
    if (g < 0 || g >= extents[d]) {
      if (!t.periodic[d]) return sentinel;
      g = ((g % extents[d]) + extents[d]) % extents[d];
    }
    linear = linear * static_cast<double>(extents[d]) + static_cast<double>(g);
  }
  return linear + 1000000.0 * round + 100000000.0 * t.index;
}

using gwtest::for_each_padded;

template <class T, int N>
void set_typed(Grid<T, N>& grid, const TestGrid<N>& t, int round) {
  for_each_padded<N>(grid.local_extents(), grid.halo().width, [&](const Point<N>& l) {
    grid[l] = static_cast<T>(expected<N>(grid.extents(), grid.offset(), grid.local_extents(), t, nullptr, l, round));
  });
}

template <class T, int N>
::testing::AssertionResult check_typed(const Grid<T, N>& grid, const TestGrid<N>& t, const Layers& filled, int round,
                                       const std::string& what) {
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  bool failed = false;
  for_each_padded<N>(grid.local_extents(), grid.halo().width, [&](const Point<N>& l) {
    if (failed) return;
    double want = expected<N>(grid.extents(), grid.offset(), grid.local_extents(), t, &filled, l, round);
    double got = static_cast<double>(grid[l]);
    if (got != static_cast<double>(static_cast<T>(want))) {
      failed = true;
      std::ostringstream text;
      text << what << ": grid " << t.index << " (" << t.role.name << ") round " << round << " local cell (";
      for (int d = 0; d < N; ++d) text << (d ? ", " : "") << l[d];
      text << ") of rank " << grid.world().rank() << ": got " << got << ", expected " << want << " (filled low ";
      for (int d = 0; d < N; ++d) text << (d ? " x " : "") << filled.low[d];
      text << ", high ";
      for (int d = 0; d < N; ++d) text << (d ? " x " : "") << filled.high[d];
      text << "; " << grid.describe() << ")";
      result = ::testing::AssertionFailure() << text.str();
    }
  });
  return result;
}

template <int N>
void set_round(const std::vector<TestGrid<N>>& grids, int round) {
  for (const TestGrid<N>& t : grids) {
    if (t.real) set_typed(*t.real, t, round);
    if (t.integer) set_typed(*t.integer, t, round);
  }
}

template <int N>
::testing::AssertionResult check_round(const std::vector<TestGrid<N>>& grids, Index depth, int round,
                                       const std::string& what) {
  for (const TestGrid<N>& t : grids) {
    Layers filled = depth < 0 ? t.role.layers(N, 0) : t.role.layers(N, depth);
    if (depth < 0) {  // the grid's whole halo
      for (int d = 0; d < N; ++d) filled.low[d] = filled.high[d] = t.role.width[d];
    }
    ::testing::AssertionResult r =
        t.real ? check_typed(*t.real, t, filled, round, what) : check_typed(*t.integer, t, filled, round, what);
    if (!r) return r;
  }
  return ::testing::AssertionSuccess();
}

template <int N>
void run_case(const StaggeredCase& c) {
  World& world = gwtest::world();
  const Pattern<N> pattern = pattern_for<N>(c, world.size());
  std::vector<TestGrid<N>> grids;
  for (const Role& role : roles(N)) {
    TestGrid<N> t;
    t.role = role;
    t.index = static_cast<int>(grids.size());
    Halo<N> halo;
    for (int d = 0; d < N; ++d) {
      halo.width[d] = role.width[d];
      halo.periodic[d] = c.periodic[d] != (d == 0 && role.flip_boundary_0);
      t.periodic[d] = halo.periodic[d];
    }
    const bool node_like = role.kind == Role::Kind::node || role.kind == Role::Kind::whole;
    halo.stencil = role.kind == Role::Kind::odd ? Stencil::full : (node_like ? c.nodes : c.cells);
    t.stencil = halo.stencil;
    if (role.integer)
      t.integer = std::make_unique<Grid<std::int64_t, N>>(world, pattern, halo);
    else
      t.real = std::make_unique<Grid<double, N>>(world, pattern, halo);
    grids.push_back(std::move(t));
  }

  int round = 0;
  for (Index depth : {1, 2}) {
    std::vector<HaloPart> parts;
    for (const TestGrid<N>& t : grids) parts.push_back({t.base(), t.role.template depth<N>(depth)});
    HaloUpdate together(parts);
    HaloUpdate separately(parts, HaloMessages::per_variable);
    for (std::size_t g = 0; g < grids.size(); ++g) {  // the layers, resolved
      const Layers l = grids[g].role.layers(N, depth);
      ASSERT_EQ(together.depth(g),
                HaloDepth::low_high(std::span<const Index>(l.low.data(), N), std::span<const Index>(l.high.data(), N)))
          << "grid " << g << ": " << together.depth(g).describe();
    }
    for (int mode = 0; mode < 4; ++mode, ++round) {
      set_round(grids, round);
      if (mode == 0) {
        together.run();
      } else if (mode == 1) {
        HaloHandle pending = together.start();
        pending.wait();
      } else if (mode == 2) {
        separately.run();
      } else {  // each grid alone, overlapping
        HaloHandle first = separately.start(0);
        for (std::size_t g = grids.size() - 1; g >= 2; --g) separately.run(g);
        HaloHandle second = separately.start(1);
        first.wait();
        second.wait();
      }
      const std::string what = "depth " + std::to_string(depth) + " mode " + std::to_string(mode);
      ASSERT_TRUE(check_round(grids, depth, round, what));
    }
  }
  // The grids' own updates still fill their whole halos.
  set_round(grids, round);
  for (const TestGrid<N>& t : grids) t.base()->update_halo();
  ASSERT_TRUE(check_round(grids, -1, round, "update_halo"));
  world.barrier();
}

class Staggered : public testing::TestWithParam<StaggeredCase> {};

TEST_P(Staggered, EachGridFillsExactlyItsPart) {
  const StaggeredCase& c = GetParam();
  if (c.dimensions == 1) run_case<1>(c);
  if (c.dimensions == 2) run_case<2>(c);
  if (c.dimensions == 3) run_case<3>(c);
}

std::vector<StaggeredCase> staggered_cases() {
  std::vector<StaggeredCase> cases;
  const bool t = true, f = false;
  const Stencil faces = Stencil::faces, full = Stencil::full;
  for (bool p : {t, f}) {
    cases.push_back({1, {23, 1, 1}, {p, p, p}, faces, faces, 0});
    cases.push_back({1, {5, 1, 1}, {p, p, p}, faces, faces, 0});  // blocks thinner than the node depth; empty ranks
  }
  for (auto p : {std::array<bool, 3>{t, t, t}, {f, f, f}, {t, f, t}}) {
    for (auto [cells, nodes] : {std::pair{full, full}, {faces, faces}, {full, faces}}) {
      cases.push_back({2, {13, 11, 1}, p, cells, nodes, 0});
      cases.push_back({2, {9, 7, 1}, p, cells, nodes, 1});    // 9 rows over 4 ranks: 3, 3, 3, 0
      cases.push_back({2, {6, 10, 1}, p, cells, nodes, 2});   // blocks of 2 and 3 columns
      cases.push_back({2, {7, 133, 1}, p, cells, nodes, 1});  // rows long enough to be padded, read in place
      cases.push_back({2, {5, 4, 1}, p, cells, nodes, 0});    // tiny blocks
    }
    for (auto [cells, nodes] : {std::pair{full, full}, {faces, full}}) {
      cases.push_back({3, {7, 6, 5}, p, cells, nodes, 0});
      cases.push_back({3, {4, 9, 5}, p, cells, nodes, 2});
      cases.push_back({3, {8, 3, 3}, p, cells, nodes, 1});
    }
  }
  return cases;
}

// The CloverLeaf example of docs/dist.md, as written there: cells, nodes and both face fields of one
// chunk decomposition, one update per depth.
TEST(Staggered, DocumentedCloverLeafFields) {
  World& world = gwtest::world();
  const Index nx = 12, ny = 10;
  namespace gw = ghostwire;
  const gw::Pattern<2> chunks = gw::make_pattern<2>({ny, nx}, world.size());             // the cells
  auto halo = [](gw::Point<2> width) { return gw::Halo<2>(width, gw::Stencil::full); };  // open boundaries
  std::vector<TestGrid<2>> grids(4);
  const std::vector<Role> all = roles(2);  // cell, node, face0, face1, ...
  const Role* role_of[4] = {&all[0], &all[1], &all[3], &all[2]};
  for (int g = 0; g < 4; ++g) {
    grids[g].role = *role_of[g];
    grids[g].index = g;
    grids[g].stencil = gw::Stencil::full;
  }
  grids[0].real = std::make_unique<gw::Grid<double, 2>>(world, chunks, halo({2, 2}));  // density: cell-centred
  grids[1].real = std::make_unique<gw::Grid<double, 2>>(world, chunks, halo({3, 3}));  // xvel: node-centred
  grids[2].real = std::make_unique<gw::Grid<double, 2>>(world, chunks, halo({2, 3}));  // vol_flux_x: x faces
  grids[3].real = std::make_unique<gw::Grid<double, 2>>(world, chunks, halo({3, 2}));  // vol_flux_y: y faces
  gw::Grid<double, 2>& density = *grids[0].real;
  gw::Grid<double, 2>& xvel = *grids[1].real;
  gw::Grid<double, 2>& vol_flux_x = *grids[2].real;
  gw::Grid<double, 2>& vol_flux_y = *grids[3].real;

  auto update_of_depth = [&](gw::Index d) {
    return gw::HaloUpdate({{&density, d},
                           {&xvel, gw::HaloDepth::low_high({d, d}, {d + 1, d + 1})},
                           {&vol_flux_x, gw::HaloDepth::low_high({d, d}, {d, d + 1})},
                           {&vol_flux_y, gw::HaloDepth::low_high({d, d}, {d + 1, d})}});
  };
  gw::HaloUpdate depth1 = update_of_depth(1), depth2 = update_of_depth(2);
  for (int round = 0; round < 4; ++round) {
    set_round(grids, round);
    (round % 2 == 0 ? depth1 : depth2).run();
    ASSERT_TRUE(check_round(grids, round % 2 == 0 ? 1 : 2, round, "documented update"));
  }
  world.barrier();
}

INSTANTIATE_TEST_SUITE_P(Cases, Staggered, testing::ValuesIn(staggered_cases()),
                         [](const testing::TestParamInfo<StaggeredCase>& param) { return param.param.name(); });

}  // namespace
