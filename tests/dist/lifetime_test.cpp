// SPDX-License-Identifier: BSD-3-Clause
// Lifetimes of halo updates and their handles (docs/dist.md, "Moves, handles and destruction"): a
// handle keeps working when its HaloUpdate is moved; destroying or assigning over an update with an
// exchange in flight finishes that exchange (the ghost cells are filled: checked) and the handle's
// wait() then raises Errc::state, while its destructor touches nothing (the sanitized build,
// scripts/test --sanitize, runs these under AddressSanitizer: a use after free fails there).
#include <optional>
#include <utility>

#include "ghostwire/dist.hpp"
#include "mpi_test_main.hpp"

using namespace ghostwire;

namespace {

constexpr double sentinel = -1.0;
constexpr Index cells_per_rank = 4;

// A periodic 1-D grid, so that every rank has both ghost cells filled by an update (by itself on 1 rank).
Grid<double, 1> ring(World& world) {
  return Grid<double, 1>(world, {cells_per_rank * world.size()}, Halo<1>(1, Stencil::faces, Boundary::periodic));
}

double value(Index global, int round, int grid) { return static_cast<double>(global + 1000 * round + 100000 * grid); }

// Owned cells hold value(their global index); ghost cells the sentinel.
void fill(Grid<double, 1>& g, int round, int grid = 0) {
  const Index n = g.local_extent(0);
  g(-1) = sentinel;
  g(n) = sentinel;
  for (Index i = 0; i < n; ++i) g(i) = value(g.offset()[0] + i, round, grid);
}

// Both ghost cells hold the values of the cells they mirror (round `round`).
::testing::AssertionResult ghosts_filled(const Grid<double, 1>& g, int round, int grid = 0) {
  const Index n = g.local_extent(0), cells = g.extent(0), first = g.offset()[0];
  const double low = value((first - 1 + cells) % cells, round, grid), high = value((first + n) % cells, round, grid);
  if (g(-1) == low && g(n) == high) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "ghost cells hold " << g(-1) << " and " << g(n) << ", expected " << low
                                       << " and " << high;
}

// wait() on a handle whose update is gone: Errc::state naming the call and the reason, once.
void expect_update_gone(HaloHandle& handle) {
  ASSERT_TRUE(handle.pending());
  GW_EXPECT_ERROR(handle.wait(), Errc::state,
                  "HaloHandle::wait: the HaloUpdate this handle was started on was destroyed");
  EXPECT_FALSE(handle.pending());
  handle.wait();  // a second wait has nothing to do
}

TEST(HaloLifetime, HandleFollowsItsUpdateThroughMoves) {
  World& world = gwtest::world();
  Grid<double, 1> g = ring(world);
  std::optional<HaloUpdate> first;
  first.emplace(std::initializer_list<GridBase*>{&g});
  fill(g, 1);
  HaloHandle pending = first->start();
  HaloUpdate second(std::move(*first));
  first.reset();  // the moved-from object goes: its handle is not affected
  pending.wait();
  EXPECT_TRUE(ghosts_filled(g, 1));

  HaloUpdate third({&g});  // built first: building is collective, not something to overlap with
  fill(g, 2);
  pending = second.start();
  third = std::move(second);  // third's own state goes (nothing in flight there); the handle follows
  pending.wait();
  EXPECT_TRUE(ghosts_filled(g, 2));
  fill(g, 3);
  third.run();
  EXPECT_TRUE(ghosts_filled(g, 3));
  world.barrier();
}

TEST(HaloLifetime, DestroyedUpdateFinishesItsExchange) {
  World& world = gwtest::world();
  Grid<double, 1> g = ring(world);
  HaloHandle pending;
  {
    HaloUpdate update({&g});
    fill(g, 1);
    pending = update.start();
  }  // collective: finishes the exchange
  EXPECT_TRUE(ghosts_filled(g, 1));
  expect_update_gone(pending);
  world.barrier();
}

TEST(HaloLifetime, DestroyedUpdateFinishesOneGridsExchange) {
  World& world = gwtest::world();
  Grid<double, 1> u = ring(world), v = ring(world);
  std::optional<HaloUpdate> update;
  update.emplace(std::initializer_list<GridBase*>{&u, &v}, HaloMessages::per_variable);
  fill(u, 1, 0);
  fill(v, 1, 1);
  HaloHandle of_v = update->start(1);
  update.reset();
  EXPECT_TRUE(ghosts_filled(v, 1, 1));
  EXPECT_EQ(u(-1), sentinel);  // grid 0 was not started
  expect_update_gone(of_v);
  world.barrier();
}

TEST(HaloLifetime, AssigningOverAnUpdateFinishesItsExchange) {
  World& world = gwtest::world();
  Grid<double, 1> u = ring(world), v = ring(world);
  HaloUpdate update({&u});
  fill(u, 1);
  HaloHandle pending = update.start();
  update = HaloUpdate({&v});  // the old state goes, collectively
  EXPECT_TRUE(ghosts_filled(u, 1));
  expect_update_gone(pending);
  fill(v, 2);
  update.run();
  EXPECT_TRUE(ghosts_filled(v, 2));
  world.barrier();
}

TEST(HaloLifetime, HandleOutlivingItsUpdateIsDestroyedQuietly) {
  World& world = gwtest::world();
  Grid<double, 1> g = ring(world);
  for (int round = 0; round < 2; ++round) {
    std::optional<HaloUpdate> update;
    update.emplace(std::initializer_list<GridBase*>{&g});
    fill(g, round);
    std::optional<HaloHandle> pending;
    pending.emplace(update->start());
    update.reset();
    if (round == 1) {  // moved while orphaned: the new handle is the orphan, the old one empty
      HaloHandle moved(std::move(*pending));
      EXPECT_FALSE(pending->pending());
      pending->wait();
      pending = std::move(moved);
    }
    pending.reset();  // must neither throw nor read the freed state (ASan)
    EXPECT_TRUE(ghosts_filled(g, round));
  }
  world.barrier();
}

TEST(HaloLifetime, GridDestroyedBeforeItsAsyncUpdateIsWaited) {
  World& world = gwtest::world();
  HaloHandle pending;
  {
    Grid<double, 1> g = ring(world);
    fill(g, 1);
    pending = g.update_halo_async();
    Grid<double, 1> moved(std::move(g));  // the grid's own update moves with it
    HaloHandle again = std::move(pending);
    again.wait();
    EXPECT_TRUE(ghosts_filled(moved, 1));
    fill(moved, 2);
    pending = moved.update_halo_async();
  }
  expect_update_gone(pending);
  world.barrier();
}

}  // namespace
