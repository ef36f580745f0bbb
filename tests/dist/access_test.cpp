// SPDX-License-Identifier: BSD-3-Clause
// Global access to grids and arrays from every rank (node peers directly, other nodes one-sided):
// GlobalRef get/put, copy and copy_async in both directions over ranges that span many owners,
// Future test/wait/get, local_range, and the collective algorithms.
#include <cstdint>
#include <numeric>
#include <vector>

#include "ghostwire/dist.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

Index rank_box(int rank, Index rows) { return rank % (rows - 2); }

double cell_value(const Point<2>& g, Index columns, double shift = 0) {
  return static_cast<double>(g[0] * columns + g[1]) + shift;
}

TEST(GridAccess, EveryRankReadsAndWritesEveryCell) {
  World& world = gwtest::world();
  Grid<double, 2> g(world, {11, 7}, Halo<2>(1));
  for_each_local(g, [&](const Point<2>& p, double& x) { x = cell_value(p, 7); });
  world.barrier();
  for (Index i = 0; i < 11; ++i)
    for (Index j = 0; j < 7; ++j) {
      auto ref = g.at({i, j});
      ASSERT_EQ(ref.get(), cell_value({i, j}, 7)) << "cell (" << i << ", " << j << ") owned by rank " << ref.owner();
      ASSERT_EQ(ref.is_local(), world.shares_memory_with(ref.owner()));
    }
  world.barrier();
  // Rank r writes the cells (i, j) with (i + j) % size == r, wherever they live.
  for (Index i = 0; i < 11; ++i)
    for (Index j = 0; j < 7; ++j)
      if ((i + j) % world.size() == world.rank()) g.at({i, j}) = -cell_value({i, j}, 7);
  world.barrier();
  for_each_local(g, [&](const Point<2>& p, double& x) { ASSERT_EQ(x, -cell_value(p, 7)); });
  world.barrier();
}

TEST(GridAccess, CopyBoxesAcrossOwners) {
  World& world = gwtest::world();
  const Index rows = 13, columns = 9;
  Grid<double, 2> g(world, {rows, columns}, Halo<2>(2, Stencil::full, Boundary::periodic));
  for_each_local(g, [&](const Point<2>& p, double& x) { x = cell_value(p, columns); });
  world.barrier();
  std::vector<Box<2>> boxes = {{{0, 0}, {rows, columns}}, {{3, 2}, {7, 5}}, {{12, 0}, {1, columns}},
                               {{0, 8}, {rows, 1}},       {{5, 5}, {0, 3}}, {{rank_box(world.rank(), rows), 1}, {2, 3}}};
  for (const Box<2>& box : boxes) {
    std::vector<double> out(static_cast<std::size_t>(box.size()) + 1, -5.0);
    double* end = copy(g, box, out.data());
    ASSERT_EQ(end, out.data() + box.size());
    for (Index i = 0; i < box.extent[0]; ++i)
      for (Index j = 0; j < box.extent[1]; ++j)
        ASSERT_EQ(out[static_cast<std::size_t>(i * box.extent[1] + j)], cell_value({box.low[0] + i, box.low[1] + j}, columns));
    ASSERT_EQ(out.back(), -5.0);  // nothing written past the end
    // Asynchronously, polling with test().
    std::vector<double> again(static_cast<std::size_t>(box.size()));
    auto future = copy_async(g, box, again.data());
    while (!future.test()) {
    }
    ASSERT_EQ(future.get(), again.data() + box.size());
    ASSERT_TRUE(std::equal(again.begin(), again.end(), out.begin()));
  }
  world.barrier();

  // Back: every rank writes one row band (spanning other ranks' blocks), asynchronously.
  const Index band = (rows + world.size() - 1) / world.size();
  const Index first_row = std::min(rows, world.rank() * band);
  Box<2> mine{{first_row, 0}, {std::min(band, rows - first_row), columns}};
  std::vector<double> values(static_cast<std::size_t>(mine.size()));
  for (Index i = 0; i < mine.extent[0]; ++i)
    for (Index j = 0; j < columns; ++j)
      values[static_cast<std::size_t>(i * columns + j)] = cell_value({mine.low[0] + i, j}, columns, 0.5);
  auto future = copy_async(values.data(), g, mine);
  future.wait();
  world.barrier();
  for_each_local(g, [&](const Point<2>& p, double& x) { ASSERT_EQ(x, cell_value(p, columns, 0.5)); });
  // Ghost cells were not touched by the copy; an update fills them from the new values.
  g.update_halo();
  Point<2> far = g.to_global({-2, -2});
  Point<2> wrapped{(far[0] + rows) % rows, (far[1] + columns) % columns};
  if (!g.local_box().empty()) {
    ASSERT_EQ(g(-2, -2), cell_value(wrapped, columns, 0.5));
  }
  world.barrier();
}

TEST(GridAccess, CopyFromPaddedRows) {
  // Rows are padded to whole cache lines with cell 0 on a line start, unless that would lengthen
  // a row by more than an eighth (with 1 to 8 ranks both kinds occur here: 27 cells with ghosts
  // at 6 ranks stay 27); other ranks' layouts must agree.
  World& world = gwtest::world();
  const Index rows = 9, columns = 150;
  Pattern<2> p({rows, columns}, {BLOCKED, BLOCKED}, TeamSpec<2>({1, world.size()}));
  Grid<double, 2> g(world, p, Halo<2>(1, Stencil::full, Boundary::periodic));
  if (!g.local_box().empty()) {
    const Index row = g.local_extent(1) + 2, rounded = (row + 7) / 8 * 8;
    if ((rounded - row) * 8 <= rounded) {
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(g.data()) % 64, 0u);
      EXPECT_EQ(g.stride(0), rounded);
    } else {
      EXPECT_EQ(g.stride(0), row);
    }
  }
  for_each_local(g, [&](const Point<2>& q, double& x) { x = cell_value(q, columns); });
  world.barrier();
  Box<2> box{{2, 3}, {5, columns - 4}};
  std::vector<double> out(static_cast<std::size_t>(box.size()));
  copy(g, box, out.data());
  for (Index i = 0; i < box.extent[0]; ++i)
    for (Index j = 0; j < box.extent[1]; ++j)
      ASSERT_EQ(out[static_cast<std::size_t>(i * box.extent[1] + j)], cell_value({box.low[0] + i, box.low[1] + j}, columns));
  ASSERT_EQ(g.at({8, 149}).get(), cell_value({8, 149}, columns));
  g.update_halo();
  if (!g.local_box().empty()) {
    Point<2> corner = g.to_global({-1, -1});
    ASSERT_EQ(g(-1, -1), cell_value({(corner[0] + rows) % rows, (corner[1] + columns) % columns}, columns));
  }
  world.barrier();
}

TEST(GridAccess, ShortRowsStayUnpadded) {
  // miniGhost's NDIM 10 block: rows of 10 cells and 2 ghosts would take 16 doubles rounded to lines
  // (a third more to sweep); they stay 12. Rows of 20 (22 with ghosts) are rounded to 24.
  World& world = gwtest::world();
  for (Index cells : {10, 20}) {
    Pattern<3> p({cells, cells, cells * world.size()}, {BLOCKED, BLOCKED, BLOCKED}, TeamSpec<3>({1, 1, world.size()}));
    Grid<double, 3> g(world, p, Halo<3>(1, Stencil::faces, Boundary::open));
    const Index row = cells == 10 ? 12 : 24;
    EXPECT_EQ(g.stride(1), row) << cells << "-cell rows";
    EXPECT_EQ(g.stride(0), row * (cells + 2)) << cells << "-cell rows";
  }
}

TEST(GridAccess, LocalRange) {
  World& world = gwtest::world();
  Grid<int, 3> g(world, {6, 5, 4});
  Box<3> query{{1, 1, 1}, {4, 3, 2}};
  Box<3> local = g.local_range(query);
  Index count = 0;
  for_each_local(g, [&](const Point<3>& p, int&) { count += query.contains(p); });
  EXPECT_EQ(local.size(), count);
  if (!local.empty()) {
    EXPECT_TRUE(query.contains(g.to_global(local.low)));
    EXPECT_TRUE(g.local_box().contains(local.low));
  }
  Index total = count;
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_LONG, MPI_SUM, world.comm());
  EXPECT_EQ(total, query.size());
}

std::vector<Pattern<1>> array_patterns(int ranks) {
  return {make_pattern<1>({37}, ranks), Pattern<1>({37}, {CYCLIC}, TeamSpec<1>({ranks})),
          Pattern<1>({41}, {BLOCKCYCLIC(3)}, TeamSpec<1>({ranks})), Pattern<1>({29}, {TILE(4)}, TeamSpec<1>({ranks})),
          Pattern<1>({3}, {BLOCKED}, TeamSpec<1>({ranks}))};
}

TEST(ArrayAccess, ElementsRangesAndLocalViews) {
  World& world = gwtest::world();
  for (const Pattern<1>& pattern : array_patterns(world.size())) {
    SCOPED_TRACE(pattern.describe());
    Array<long> a(world, pattern);
    const Index n = a.size();
    for (Index i = 0; i < a.local_size(); ++i) a.lbegin()[i] = 10 * a.global_index(i);
    world.barrier();
    for (Index i = 0; i < n; ++i) ASSERT_EQ(a[i].get(), 10 * i);
    // Ranges spanning many owners, both directions, sync and async.
    for (auto [first, last] : {std::pair<Index, Index>{0, n}, {1, n - 1}, {n / 2, n / 2 + 3}, {n - 1, n}}) {
      if (last > n || first > last) continue;
      std::vector<long> out(static_cast<std::size_t>(last - first));
      ASSERT_EQ(copy(a, first, last, out.data()), out.data() + out.size());
      for (Index i = first; i < last; ++i) ASSERT_EQ(out[static_cast<std::size_t>(i - first)], 10 * i);
      std::fill(out.begin(), out.end(), 0);
      auto f = copy_async(a, first, last, out.data());
      f.wait();
      for (Index i = first; i < last; ++i) ASSERT_EQ(out[static_cast<std::size_t>(i - first)], 10 * i);
    }
    world.barrier();
    // Each rank puts a contiguous share through copy (spanning other owners), then checks its own.
    Index share = (n + world.size() - 1) / world.size();
    Index first = std::min(n, world.rank() * share), last = std::min(n, first + share);
    std::vector<long> values(static_cast<std::size_t>(last - first));
    std::iota(values.begin(), values.end(), 1000 + first);
    copy_async(values.data(), values.data() + values.size(), a, first).wait();
    world.barrier();
    for (Index i = 0; i < a.local_size(); ++i) ASSERT_EQ(a.local()[static_cast<std::size_t>(i)], 1000 + a.global_index(i));
    world.barrier();  // everyone has checked before the next writes
    // GlobalRef put from another rank.
    if (world.rank() == world.size() - 1)
      for (Index i = 0; i < n; i += 2) a[i] = -i;
    world.barrier();
    for (Index i = 0; i < a.local_size(); ++i) {
      Index g = a.global_index(i);
      ASSERT_EQ(a.lbegin()[i], g % 2 == 0 ? -g : 1000 + g);
    }
    // local_range: my elements among [3, n - 2) are a contiguous local range.
    if (n > 5) {
      auto [lbegin, lend] = a.local_range(3, n - 2);
      for (Index i = 0; i < a.local_size(); ++i) {
        Index g = a.global_index(i);
        ASSERT_EQ(i >= lbegin && i < lend, g >= 3 && g < n - 2) << "local " << i << " global " << g;
      }
    }
    world.barrier();
  }
}

TEST(Algorithms, FillTransformReduce) {
  World& world = gwtest::world();
  // 9 rows over up to 8 ranks with all ranks in rows: some own nothing.
  Pattern<2> p({9, 5}, {BLOCKED, BLOCKED}, TeamSpec<2>({world.size(), 1}));
  Grid<double, 2> u(world, p, Halo<2>(1)), v(world, p), w(world, p, Halo<2>(2));
  fill(u, 2.0);
  EXPECT_EQ(reduce(u, ReduceOp::sum), 90.0);
  for_each_local(u, [](const Point<2>& g, double& x) { x = static_cast<double>(g[0] * 5 + g[1]); });
  EXPECT_EQ(reduce(u, ReduceOp::sum), 44.0 * 45 / 2);
  EXPECT_EQ(reduce(u, ReduceOp::min), 0.0);
  EXPECT_EQ(reduce(u, ReduceOp::max), 44.0);
  transform(u, v, [](double x) { return x * x; });
  transform(u, v, w, [](double a, double b) { return b - a; });
  double expected = 0;
  for (int i = 0; i < 45; ++i) expected += static_cast<double>(i) * i - i;
  EXPECT_EQ(reduce(w, ReduceOp::sum), expected);
  EXPECT_EQ(u(-1, -1), 0.0);  // ghost cells untouched by algorithms

  Array<int> a(world, 100), b(world, 100);
  fill(a, 3);
  for_each_local(a, [](Index i, int& x) { x += static_cast<int>(i); });
  transform(a, b, [](int x) { return -x; });
  EXPECT_EQ(reduce(a, ReduceOp::sum), 300 + 4950);
  EXPECT_EQ(reduce(b, ReduceOp::min), -102);
  EXPECT_EQ(reduce(b, ReduceOp::max), -3);
  world.barrier();
}

}  // namespace
