// SPDX-License-Identifier: BSD-3-Clause
// Misuse catalogue: Grid, HaloUpdate, HaloDepth and HaloHandle.
#include <utility>
#include <vector>

#include "ghostwire/dist.hpp"
#include "misuse_catalogue.hpp"

using namespace ghostwire;
using misuse::Case;

namespace {

TEST(MisuseCatalogue, GridAndHaloUpdate) {
  World& world = gwtest::world();
  Grid<double, 2> grid(world, {16, 12}, Halo<2>(1));
  Grid<double, 2> other_extents(world, {16, 13}, Halo<2>(1));
  Grid<double, 2> wider_halo(world, {16, 12}, Halo<2>(2));
  HaloUpdate separately({&grid, &wider_halo}, HaloMessages::per_variable);
  HaloUpdate together({&grid});
  misuse::check_table("MisuseCatalogue.GridAndHaloUpdate", {
      {"Grid", "extent -4", Errc::invalid_argument, "extent of dimension 1 is -4",
       [&] { Grid<double, 2> g(world, {16, -4}); }},
      {"Grid", "halo width -1", Errc::invalid_argument, "halo width of dimension 0 is -1",
       [&] { Grid<double, 2> g(world, {16, 12}, Halo<2>({-1, 1})); }},
      {"Grid::at", "index beyond the extents", Errc::out_of_range, "index {16, 0}",
       [&] { (void)grid.at({16, 0}); }},
      {"HaloUpdate", "no grids", Errc::invalid_argument, "no grids given",
       [&] { HaloUpdate h(std::initializer_list<GridBase*>{}); }},
      {"HaloUpdate", "grid = null", Errc::invalid_argument, "grid 0 is null",
       [&] { HaloUpdate h({static_cast<GridBase*>(nullptr)}); }},
      {"HaloUpdate", "the same grid twice", Errc::invalid_argument, "grid 1 is the same grid as grid 0",
       [&] { HaloUpdate h({&grid, &grid}); }},
      {"HaloUpdate", "grids of different patterns in one message", Errc::mismatch, "grid 1 has the pattern",
       [&] { HaloUpdate h({&grid, &other_extents}); }},
      {"HaloUpdate", "depth beyond the halo width", Errc::invalid_argument, "depth 2 on the low side of dimension 0 exceeds the halo width 1",
       [&] { HaloUpdate h({{&grid, 2}}); }},
      {"HaloUpdate", "depth -1", Errc::invalid_argument, "depth -1",
       [&] { HaloUpdate h({{&grid, -1}}); }},
      {"HaloDepth::low_high", "low and high of different lengths", Errc::invalid_argument, "low value(s) but",
       [&] { (void)HaloDepth::low_high({1, 1}, {1}); }},
      {"HaloUpdate::run", "grid index = grid count", Errc::out_of_range, "grid 2 is not in [0, 2)",
       [&] { separately.run(2); }},
      {"HaloUpdate::run", "one grid of a per-neighbour update", Errc::state, "HaloMessages::per_variable",
       [&] { together.run(0); }},
      {"HaloUpdate::depth", "grid index = grid count", Errc::out_of_range, "grid 1 is not in [0, 1)",
       [&] { (void)together.depth(1); }},
      {"HaloUpdate::run_shared", "thread = threads", Errc::out_of_range, "thread 3 is not in [0, 3)",
       [&] { together.run_shared(3, 3); }},
      {"Grid::update_halo_shared", "threads = 0", Errc::out_of_range, "thread 0 is not in [0, 0)",
       [&] { grid.update_halo_shared(0, 0); }},
  });
  separately.run();
  world.barrier();
}

// Use after move and after destroy: a moved-from HaloUpdate, and a handle whose update is gone.
// Every row runs on every rank in the same order (building and destroying an update are collective).
TEST(MisuseCatalogue, HaloUpdateLifetime) {
  World& world = gwtest::world();
  Grid<double, 2> grid(world, {16, 12}, Halo<2>(1));
  HaloUpdate moved_from({&grid});
  HaloUpdate moved_into(std::move(moved_from));
  const char* moved = "this HaloUpdate was moved from";
  // NOLINTBEGIN(bugprone-use-after-move): the misuse under test
  misuse::check_table("MisuseCatalogue.HaloUpdateLifetime", {
      {"HaloUpdate::run", "on a moved-from update", Errc::state, moved, [&] { moved_from.run(); }},
      {"HaloUpdate::run (one grid)", "on a moved-from update", Errc::state, moved, [&] { moved_from.run(0); }},
      {"HaloUpdate::start", "on a moved-from update", Errc::state, moved, [&] { (void)moved_from.start(); }},
      {"HaloUpdate::start (one grid)", "on a moved-from update", Errc::state, moved,
       [&] { (void)moved_from.start(0); }},
      {"HaloUpdate::grids", "on a moved-from update", Errc::state, moved, [&] { (void)moved_from.grids(); }},
      {"HaloUpdate::depth", "on a moved-from update", Errc::state, moved, [&] { (void)moved_from.depth(0); }},
      {"HaloUpdate::messages", "on a moved-from update", Errc::state, moved, [&] { (void)moved_from.messages(); }},
      {"HaloUpdate::plan", "on a moved-from update", Errc::state, moved, [&] { (void)moved_from.plan(); }},
      {"HaloUpdate::describe", "on a moved-from update", Errc::state, moved, [&] { (void)moved_from.describe(); }},
      {"HaloHandle::wait", "its HaloUpdate destroyed first", Errc::state,
       "HaloHandle::wait: the HaloUpdate this handle was started on was destroyed",
       [&] {
         HaloHandle pending;
         {
           HaloUpdate update({&grid});
           pending = update.start();
         }  // finishes the exchange
         pending.wait();
       }},
      {"HaloHandle::wait", "its Grid (update_halo_async) destroyed first", Errc::state,
       "HaloHandle::wait: the HaloUpdate this handle was started on was destroyed",
       [&] {
         HaloHandle pending;
         {
           Grid<double, 2> short_lived(world, {16, 12}, Halo<2>(1));
           pending = short_lived.update_halo_async();
         }
         pending.wait();
       }},
  });
  // NOLINTEND(bugprone-use-after-move)
  moved_into.run();
  world.barrier();
}

}  // namespace
