// SPDX-License-Identifier: BSD-3-Clause
// Misuse of the distributed data structures: every error names the argument, its value and what
// was expected, and no rank hangs (local checks throw on every rank alike).
#include "ghostwire/dist.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

TEST(Misuse, OutOfRangeIndices) {
  World& world = gwtest::world();
  Grid<double, 2> g(world, {16, 12});
  GW_EXPECT_ERROR(g.at({3, 12}), Errc::out_of_range,
                  "Grid::at: index {3, 12} is outside the grid's extents {16, 12} (dimension 1: 12 is not in [0, 12))");
  GW_EXPECT_ERROR(g.at({-1, 0}), Errc::out_of_range, "dimension 0: -1 is not in [0, 16)");
  Array<int> a(world, 10);
  GW_EXPECT_ERROR(a[10].get(), Errc::out_of_range, "Array::operator[]: index 10 is not in [0, 10), the array's size");
  GW_EXPECT_ERROR(a.at(-2), Errc::out_of_range, "Array::at: index -2 is not in [0, 10)");
  std::vector<double> out(100);
  GW_EXPECT_ERROR(copy(g, Box<2>{{10, 0}, {7, 12}}, out.data()), Errc::out_of_range,
                  "copy_async: the range [10, 17) x [0, 12) is not inside the grid ([0, 16) x [0, 12)); dimension 0 reaches [10, 17)");
  std::vector<int> values(5);
  GW_EXPECT_ERROR(copy(values.data(), values.data() + 5, a, 7), Errc::out_of_range,
                  "the range [7, 12) is not inside the array ([0, 10))");
  world.barrier();
}

TEST(Misuse, MismatchedGridsInOneUpdate) {
  World& world = gwtest::world();
  Grid<double, 2> a(world, {16, 12}, Halo<2>(1)), b(world, {16, 12}, Halo<2>(2)), c(world, {16, 13}, Halo<2>(1));
  Grid<double, 2> d(world, {16, 12}, Halo<2>(1, Stencil::full));
  GW_EXPECT_ERROR(HaloUpdate({&a, &c}), Errc::mismatch,
                  "HaloUpdate: grid 1 has the pattern (2-D pattern, extents 16 x 13",
                  "but grid 0 has (2-D pattern, extents 16 x 12", "all grids of one update need the same pattern");
  GW_EXPECT_ERROR(HaloUpdate({{&a, 1}, {&c, 1}}), Errc::mismatch, "HaloUpdate: grid 1 has the pattern");
  HaloUpdate different_halos({&a, &b, &d});  // each grid its own halo (staggered_test checks the cells)
  different_halos.run();
  GW_EXPECT_ERROR(HaloUpdate({&a, &a}), Errc::invalid_argument, "grid 1 is the same grid as grid 0; list each grid once");
  GW_EXPECT_ERROR(HaloUpdate(std::initializer_list<GridBase*>{}), Errc::invalid_argument, "no grids given");
  Grid<double, 2> other_type_ok(world, {16, 12}, Halo<2>(1));
  HaloUpdate together({&a, &other_type_ok});
  GW_EXPECT_ERROR(together.run(1), Errc::state,
                  "HaloUpdate::run(1): this update sends all grids in one message per neighbour "
                  "(HaloMessages::per_neighbour); updating one grid needs HaloMessages::per_variable");
  HaloUpdate separately({&a, &other_type_ok}, HaloMessages::per_variable);
  GW_EXPECT_ERROR(separately.run(2), Errc::out_of_range, "HaloUpdate::run: grid 2 is not in [0, 2) of this update");
  {
    HaloHandle pending = separately.start(0);
    GW_EXPECT_ERROR(separately.run(), Errc::state,
                    "HaloUpdate::run: an asynchronous update of these grids is still under way; call wait() on its handle first");
    GW_EXPECT_ERROR(separately.run(0), Errc::state, "an asynchronous update of grid 0 is still under way");
    separately.run(1);  // the other grid is free
    pending.wait();
  }
  separately.run();
  world.barrier();
}

TEST(Misuse, BadDepths) {
  World& world = gwtest::world();
  Grid<double, 2> cells(world, {16, 12}, Halo<2>(2)), nodes(world, {16, 12}, Halo<2>(3, Stencil::full));
  Grid<double, 2> thin(world, {16, 12}, Halo<2>({0, 1}));
  Grid<double, 2> other(world, {16, 12}, Halo<2>({1, 2}, Stencil::full, Boundary::periodic));
  Grid<double, 3> cube(world, {6, 6, 6}, Halo<3>(1));
  GW_EXPECT_ERROR(
      HaloUpdate({{&cells, 1}, {&nodes, 4}}), Errc::invalid_argument,
      "HaloUpdate: grid 1: depth 4 on the low side of dimension 0 exceeds the halo width 3; expected 0 to 3 layers");
  GW_EXPECT_ERROR(
      HaloUpdate({{&cells, 1}, {&nodes, HaloDepth::low_high({2, 2}, {3, 4})}}), Errc::invalid_argument,
      "HaloUpdate: grid 1: depth 4 on the high side of dimension 1 exceeds the halo width 3; expected 0 to 3 layers");
  GW_EXPECT_ERROR(HaloUpdate({{&cells, HaloDepth::each({1, -1})}}), Errc::invalid_argument,
                  "HaloUpdate: grid 0: depth -1 on the low side of dimension 1 is negative; expected 0 to 2 layers");
  GW_EXPECT_ERROR(HaloUpdate({{&cells, -2}}), Errc::invalid_argument,
                  "depth -2 on the low side of dimension 0 is negative");
  GW_EXPECT_ERROR(
      HaloUpdate({{&cells}, {&thin, 1}}), Errc::invalid_argument,
      "HaloUpdate: grid 1: depth 1 on the low side of dimension 0 exceeds the halo width 0; expected 0 to 0 layers");
  GW_EXPECT_ERROR(
      HaloUpdate({{&cells, HaloDepth::each({1, 1, 1})}}), Errc::invalid_argument,
      "HaloUpdate: grid 0 has 2 dimension(s) but its depth (1 x 1 x 1 on each side) gives 3; expected one value "
      "per dimension and side");
  GW_EXPECT_ERROR(HaloUpdate({{&cube, HaloDepth::low_high({1, 1}, {1, 0})}}), Errc::invalid_argument,
                  "grid 0 has 3 dimension(s) but its depth (low 1 x 1, high 1 x 0) gives 2");
  GW_EXPECT_ERROR(HaloUpdate({{&cube, HaloDepth::each({1, 1, 1, 1})}}), Errc::invalid_argument,
                  "grid 0 has 3 dimension(s) but its depth (1 x 1 x 1 x ... on each side) gives 4");
  GW_EXPECT_ERROR(HaloDepth::low_high({1, 1}, {1}), Errc::invalid_argument,
                  "HaloDepth::low_high: 2 low value(s) but 1 high value(s); expected one of each per dimension");
  GW_EXPECT_ERROR(HaloDepth::each({}), Errc::invalid_argument,
                  "HaloDepth: no values given; expected one per dimension");
  GW_EXPECT_ERROR(HaloUpdate({{&cells, 1}, {nullptr, 1}}), Errc::invalid_argument, "HaloUpdate: grid 1 is null");
  GW_EXPECT_ERROR(HaloUpdate({{&cells, 1}, {&cells, 2}}), Errc::invalid_argument,
                  "grid 1 is the same grid as grid 0; list each grid once");

  // What the update says it does.
  HaloUpdate update(
      {{&cells, 1}, {&nodes, HaloDepth::low_high({2, 2}, {3, 3})}, {&thin, HaloDepth::each({0, 1})}, {&other}},
      HaloMessages::per_variable);
  EXPECT_EQ(update.depth(0), HaloDepth::each({1, 1}));
  EXPECT_EQ(update.depth(1), HaloDepth::low_high({2, 2}, {3, 3}));
  EXPECT_EQ(update.depth(3), HaloDepth::each({1, 2}));
  GW_EXPECT_ERROR(update.depth(4), Errc::out_of_range, "HaloUpdate::depth: grid 4 is not in [0, 4) of this update");
  const std::string text = update.describe();
  for (const char* line :
       {"halo update of 4 grid(s), one message per grid\n",
        "  grid 0: halo width 2 x 2, faces only, periodic no x no; fills 1 x 1 on each side\n",
        "  grid 1: halo width 3 x 3, faces, edges and corners, periodic no x no; fills low 2 x 2, high 3 x 3\n",
        "  grid 2: halo width 0 x 1, faces only, periodic no x no; fills 0 x 1 on each side\n",
        "  grid 3: halo width 1 x 2, faces, edges and corners, periodic yes x yes; fills the whole halo\n"})
    EXPECT_NE(text.find(line), std::string::npos) << "describe() lacks '" << line << "':\n" << text;
  EXPECT_EQ(HaloDepth().describe(), "the whole halo");
  EXPECT_EQ(HaloDepth(1).describe(), "1 layer on each side");
  EXPECT_EQ(HaloDepth(2).describe(), "2 layers on each side");
  update.run();
  HaloUpdate({{&cube, HaloDepth::low_high({1, 0, 1}, {0, 1, 1})}}).run();
  world.barrier();
}

TEST(Misuse, BadGrids) {
  World& world = gwtest::world();
  GW_EXPECT_ERROR((Grid<double, 1>(world, Pattern<1>({10}, {CYCLIC}, TeamSpec<1>({world.size()})))),
                  Errc::invalid_argument, "is not blocked; a grid needs BLOCKED or NONE in every dimension");
  const std::string team = "the pattern's team has " + std::to_string(world.size() + 1) + " ranks but the world has";
  GW_EXPECT_ERROR((Grid<double, 2>(world, Pattern<2>({10, 10}, {BLOCKED, BLOCKED}, TeamSpec<2>({world.size() + 1, 1})))),
                  Errc::invalid_argument, team.c_str());
  GW_EXPECT_ERROR((Grid<double, 2>(world, {10, 10}, Halo<2>({1, -1}))), Errc::invalid_argument,
                  "Grid: the halo width of dimension 1 is -1; expected >= 0");
  GW_EXPECT_ERROR((Array<double>(world, Pattern<1>({10}, {BLOCKED}, TeamSpec<1>({world.size() + 2})))),
                  Errc::invalid_argument, "Array: the pattern's team has");
  world.barrier();
}

}  // namespace
