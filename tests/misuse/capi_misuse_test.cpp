// SPDX-License-Identifier: BSD-3-Clause
// Misuse catalogue: the C API (world, segments, notifications, reductions, plans, grids, halo
// updates). Every call returns the Errc as a GW_ERR_* code and leaves a message naming the argument
// in gw_last_error_message(). A handle's destroy function sets the caller's handle to NULL, so a
// use after destroy through that variable is "... is NULL" (copies of a handle cannot be checked:
// see docs/runtime.md).
#include <cstdint>
#include <vector>

#include "ghostwire/ghostwire.h"
#include "misuse_catalogue.hpp"

using namespace ghostwire;
using misuse::c_call;
using misuse::Case;

namespace {

TEST(MisuseCatalogue, CApi) {
  World& cpp_world = gwtest::world();
  const int size = cpp_world.size();
  const int me = cpp_world.rank();
  gw_world_t world = nullptr;
  ASSERT_EQ(gw_world_create(MPI_COMM_WORLD, &world), GW_SUCCESS) << gw_last_error_message();
  gw_segment_t segment = nullptr;
  ASSERT_EQ(gw_segment_create(world, 256, 8, &segment), GW_SUCCESS) << gw_last_error_message();
  gw_segment_t destroyed = nullptr;
  ASSERT_EQ(gw_segment_create(world, 64, 4, &destroyed), GW_SUCCESS) << gw_last_error_message();
  ASSERT_EQ(gw_segment_destroy(&destroyed), GW_SUCCESS);
  gw_plan_t plan = nullptr;
  ASSERT_EQ(gw_plan_create(world, &me, 1, 1, &plan), GW_SUCCESS) << gw_last_error_message();
  gw_region_t region{};
  std::vector<double> memory(16);
  ASSERT_EQ(gw_plan_add_private_memory(plan, memory.data(), 128, 8, &region), GW_SUCCESS) << gw_last_error_message();
  const std::int64_t extents[2] = {16, 12};
  const std::int64_t bad_extents[2] = {16, -1};
  gw_grid_t grid = nullptr;
  ASSERT_EQ(gw_grid_create(world, GW_DOUBLE, 2, extents, nullptr, nullptr, nullptr, GW_STENCIL_FACES, &grid),
            GW_SUCCESS) << gw_last_error_message();
  std::vector<std::byte> buffer(512);
  double values[4] = {1, 2, 3, 4};
  int out = 0;
  std::size_t bytes = 0;
  gw_notification_t value = 0;
  const std::size_t extent3[3] = {2, 2, 2};
  const std::ptrdiff_t stride4[4] = {1, 2, 4, 8};
  gw_grid_t no_grid = nullptr;
  gw_halo_handle_t no_handle = nullptr;
  misuse::check_table("MisuseCatalogue.CApi", {
      {"gw_world_create", "world = NULL", Errc::invalid_argument, "world is NULL",
       [&] { c_call(gw_world_create(MPI_COMM_WORLD, nullptr)); }},
      {"gw_world_rank", "world = NULL", Errc::invalid_argument, "world is NULL",
       [&] { c_call(gw_world_rank(nullptr, &out)); }},
      {"gw_world_rank", "rank = NULL", Errc::invalid_argument, "rank is NULL",
       [&] { c_call(gw_world_rank(world, nullptr)); }},
      {"gw_world_node_of", "rank = size", Errc::out_of_range, "rank",
       [&] { c_call(gw_world_node_of(world, size, &out)); }},
      {"gw_world_destroy", "world = NULL", Errc::invalid_argument, "world is NULL",
       [&] { c_call(gw_world_destroy(nullptr)); }},
      {"gw_segment_create", "world = NULL", Errc::invalid_argument, "world is NULL",
       [&] {
         gw_segment_t s = nullptr;
         c_call(gw_segment_create(nullptr, 64, 4, &s));
       }},
      {"gw_segment_create", "segment = NULL", Errc::invalid_argument, "segment is NULL",
       [&] { c_call(gw_segment_create(world, 64, 4, nullptr)); }},
      {"gw_segment_create", "notification_count = 2^26 + 1", Errc::invalid_argument, "notification_count 67108865",
       [&] {
         gw_segment_t s = nullptr;
         c_call(gw_segment_create(world, 64, (std::size_t{1} << 26) + 1, &s));
       }},
      {"gw_segment_size", "segment used after gw_segment_destroy", Errc::invalid_argument, "segment is NULL",
       [&] { c_call(gw_segment_size(destroyed, &bytes)); }},
      {"gw_segment_size", "bytes = NULL", Errc::invalid_argument, "bytes is NULL",
       [&] { c_call(gw_segment_size(segment, nullptr)); }},
      {"gw_segment_put", "target = size", Errc::out_of_range, "rank",
       [&] { c_call(gw_segment_put(segment, size, 0, buffer.data(), 8)); }},
      {"gw_segment_put", "bytes beyond the segment", Errc::out_of_range, "bytes [",
       [&] { c_call(gw_segment_put(segment, 0, 250, buffer.data(), 8)); }},
      {"gw_segment_get", "destination = NULL", Errc::invalid_argument, "destination",
       [&] { c_call(gw_segment_get(segment, 0, 0, nullptr, 8)); }},
      {"gw_write_notify", "destination = NULL", Errc::invalid_argument, "destination is NULL",
       [&] { c_call(gw_write_notify(segment, 0, 0, nullptr, 0, 8, 0, 1)); }},
      {"gw_write_notify_from", "value = 0", Errc::invalid_argument, "notification value 0",
       [&] { c_call(gw_write_notify_from(buffer.data(), 0, segment, 0, 8, 0, 0)); }},
      {"gw_notify", "target = -1", Errc::out_of_range, "rank -1",
       [&] { c_call(gw_notify(-1, segment, 0, 1)); }},
      {"gw_notify_test", "id = count", Errc::out_of_range, "notification id 8",
       [&] { c_call(gw_notify_test(segment, 8, &value)); }},
      {"gw_notify_test", "value = NULL", Errc::invalid_argument, "value is NULL",
       [&] { c_call(gw_notify_test(segment, 0, nullptr)); }},
      {"gw_notify_waitsome", "count = 0", Errc::invalid_argument, "count is 0",
       [&] {
         gw_notification_id_t id = 0;
         c_call(gw_notify_waitsome(segment, 0, 0, &id, &value));
       }},
      {"gw_allreduce_double", "op = 9", Errc::invalid_argument, "op is 9",
       [&] { c_call(gw_allreduce_double(world, values, 4, 9)); }},
      {"gw_allreduce_double", "values = NULL, count 4", Errc::invalid_argument, "values is NULL",
       [&] { c_call(gw_allreduce_double(world, nullptr, 4, GW_SUM)); }},
      {"gw_plan_create", "neighbour_count = -1", Errc::invalid_argument, "neighbour_count is negative",
       [&] {
         gw_plan_t p = nullptr;
         c_call(gw_plan_create(world, &me, -1, 1, &p));
       }},
      {"gw_plan_create", "neighbours = NULL, count 1", Errc::invalid_argument, "neighbours is NULL",
       [&] {
         gw_plan_t p = nullptr;
         c_call(gw_plan_create(world, nullptr, 1, 1, &p));
       }},
      {"gw_plan_create", "channels = 0", Errc::invalid_argument, "channels is 0",
       [&] {
         gw_plan_t p = nullptr;
         c_call(gw_plan_create(world, &me, 1, 0, &p));
       }},
      {"gw_plan_rebind", "region = 3 (not the plan's)", Errc::invalid_argument, "region 3 was not returned",
       [&] { c_call(gw_plan_rebind(plan, 3, memory.data())); }},
      {"gw_plan_add_box", "direction = 5", Errc::invalid_argument, "direction 5",
       [&] { c_call(gw_plan_add_box(plan, 5, 0, me, region, 0, 3, extent3, stride4)); }},
      {"gw_plan_add_box", "dimensions = 4", Errc::invalid_argument, "dimensions 4",
       [&] { c_call(gw_plan_add_box(plan, GW_SEND, 0, me, region, 0, 4, extent3, stride4)); }},
      {"gw_plan_add_indices", "indices = NULL, count 2", Errc::invalid_argument, "indices is NULL",
       [&] { c_call(gw_plan_add_indices(plan, GW_SEND, 0, me, region, 2, nullptr)); }},
      {"gw_plan_add_indices", "channel = channels", Errc::out_of_range, "channel 1",
       [&] {
         const std::size_t index = 0;
         c_call(gw_plan_add_indices(plan, GW_SEND, 1, me, region, 1, &index));
       }},
      {"gw_plan_send", "before gw_plan_commit", Errc::state, "not committed",
       [&] { c_call(gw_plan_send(plan, 0, me)); }},
      {"gw_plan_read_in_place", "use = NULL", Errc::invalid_argument, "use is NULL",
       [&] { c_call(gw_plan_read_in_place(plan, 0, me, nullptr, nullptr)); }},
      {"gw_plan_partition", "direction = 3", Errc::invalid_argument, "direction 3",
       [&] { c_call(gw_plan_partition(plan, 3, 0, me, 2, nullptr)); }},
      {"gw_plan_partition", "count = 0 (elements NULL)", Errc::invalid_argument, "count is 0",
       [&] { c_call(gw_plan_partition(plan, GW_SEND, 0, me, 0, nullptr)); }},
      {"gw_plan_partitions", "count = NULL", Errc::invalid_argument, "count is NULL",
       [&] { c_call(gw_plan_partitions(plan, GW_SEND, 0, me, nullptr)); }},
      {"gw_plan_parrived", "arrived = NULL", Errc::invalid_argument, "arrived is NULL",
       [&] { c_call(gw_plan_parrived(plan, 0, me, 0, nullptr)); }},
      {"gw_plan_pready", "before gw_plan_commit", Errc::state, "not committed",
       [&] { c_call(gw_plan_pready(plan, 0, me, 0)); }},
      {"gw_world_create_threaded", "level = 4", Errc::invalid_argument, "level 4",
       [&] {
         gw_world_t w = nullptr;
         c_call(gw_world_create_threaded(MPI_COMM_WORLD, 4, &w));
       }},
      {"gw_world_thread_level", "level = NULL", Errc::invalid_argument, "level is NULL",
       [&] { c_call(gw_world_thread_level(world, nullptr)); }},
      {"gw_plan_exchange", "plan = NULL", Errc::invalid_argument, "plan is NULL",
       [&] { c_call(gw_plan_exchange(nullptr)); }},
      {"gw_plan_describe", "text = NULL", Errc::invalid_argument, "text is NULL",
       [&] { c_call(gw_plan_describe(plan, nullptr, 16)); }},
      {"gw_grid_create", "type = 9", Errc::invalid_argument, "type",
       [&] {
         gw_grid_t g = nullptr;
         c_call(gw_grid_create(world, 9, 2, extents, nullptr, nullptr, nullptr, GW_STENCIL_FACES, &g));
       }},
      {"gw_grid_create", "dimensions = 4", Errc::invalid_argument, "dimensions 4",
       [&] {
         gw_grid_t g = nullptr;
         const std::int64_t four[4] = {2, 2, 2, 2};
         c_call(gw_grid_create(world, GW_DOUBLE, 4, four, nullptr, nullptr, nullptr, GW_STENCIL_FACES, &g));
       }},
      {"gw_grid_create", "extents = NULL", Errc::invalid_argument, "extents is NULL",
       [&] {
         gw_grid_t g = nullptr;
         c_call(gw_grid_create(world, GW_DOUBLE, 2, nullptr, nullptr, nullptr, nullptr, GW_STENCIL_FACES, &g));
       }},
      {"gw_grid_create", "extent -1", Errc::invalid_argument, "extent",
       [&] {
         gw_grid_t g = nullptr;
         c_call(gw_grid_create(world, GW_DOUBLE, 2, bad_extents, nullptr, nullptr, nullptr, GW_STENCIL_FACES, &g));
       }},
      {"gw_grid_create", "stencil = 5", Errc::invalid_argument, "stencil",
       [&] {
         gw_grid_t g = nullptr;
         c_call(gw_grid_create(world, GW_DOUBLE, 2, extents, nullptr, nullptr, nullptr, 5, &g));
       }},
      {"gw_grid_create", "grid = NULL", Errc::invalid_argument, "grid is NULL",
       [&] { c_call(gw_grid_create(world, GW_DOUBLE, 2, extents, nullptr, nullptr, nullptr, GW_STENCIL_FACES, nullptr)); }},
      {"gw_grid_data", "grid = NULL", Errc::invalid_argument, "grid is NULL",
       [&] {
         void* data = nullptr;
         c_call(gw_grid_data(nullptr, &data));
       }},
      {"gw_grid_extents", "extents = NULL", Errc::invalid_argument, "extents is NULL",
       [&] { c_call(gw_grid_extents(grid, nullptr)); }},
      {"gw_grid_update_halo", "grid used after gw_grid_destroy", Errc::invalid_argument, "grid is NULL",
       [&] { c_call(gw_grid_update_halo(no_grid)); }},
      {"gw_grid_update_halo_start", "handle = NULL", Errc::invalid_argument, "handle is NULL",
       [&] { c_call(gw_grid_update_halo_start(grid, nullptr)); }},
      {"gw_halo_wait", "*handle = NULL", Errc::invalid_argument, "*handle is NULL",
       [&] { c_call(gw_halo_wait(&no_handle)); }},
      {"gw_halo_wait", "its update destroyed first (gw_halo_update_destroy)", Errc::state,
       "the HaloUpdate this handle was started on was destroyed",
       [&] {
         gw_halo_update_t update = nullptr;
         c_call(gw_halo_update_create(&grid, 1, nullptr, nullptr, GW_PER_NEIGHBOUR, &update));
         gw_halo_handle_t handle = nullptr;
         c_call(gw_halo_update_start(update, &handle));
         c_call(gw_halo_update_destroy(&update));  // collective: finishes the exchange
         c_call(gw_halo_wait(&handle));            // frees the handle, error or not
       }},
  });
  EXPECT_EQ(gw_grid_destroy(&grid), GW_SUCCESS);
  EXPECT_EQ(grid, nullptr);
  EXPECT_EQ(gw_plan_destroy(&plan), GW_SUCCESS);
  EXPECT_EQ(gw_segment_destroy(&segment), GW_SUCCESS);
  EXPECT_EQ(gw_world_destroy(&world), GW_SUCCESS);
  cpp_world.barrier();
}

}  // namespace
