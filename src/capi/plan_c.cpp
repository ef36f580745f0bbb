// SPDX-License-Identifier: BSD-3-Clause
// C API of halo plans.
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "c_api_support.hpp"
#include "ghostwire/ghostwire.h"
#include "ghostwire/plan.hpp"
#include "runtime_handles.hpp"

using namespace ghostwire;
using ghostwire::capi::guarded;
using ghostwire::capi::reduce_op;
using ghostwire::capi::require;
using ghostwire::capi::scalar_type;

struct gw_plan {
  Plan plan;
  explicit gw_plan(Plan&& p) : plan(std::move(p)) {}
};

namespace {

Plan& plan_of(gw_plan_t p) {
  require(p, "plan");
  return p->plan;
}

bool direction_is_send(int direction, const char* call) {
  if (direction != GW_SEND && direction != GW_RECEIVE)
    raise(Errc::invalid_argument, std::string(call) + ": direction " + std::to_string(direction) +
                                      ": expected GW_SEND or GW_RECEIVE");
  return direction == GW_SEND;
}

void add_piece(gw_plan_t p, int direction, size_t channel, int neighbour, gw_region_t region, const Layout& layout) {
  if (direction_is_send(direction, "gw_plan_add"))
    plan_of(p).add_send(channel, neighbour, Region{region}, layout);
  else
    plan_of(p).add_receive(channel, neighbour, Region{region}, layout);
}

Aggregation aggregation_of(int mode, const char* call) {
  if (mode < GW_AGGREGATE_AUTO || mode > GW_AGGREGATE_OFF)
    raise(Errc::invalid_argument, std::string(call) + ": mode is " + std::to_string(mode) +
                                      "; expected GW_AGGREGATE_AUTO (0), GW_AGGREGATE_NODE (1) or GW_AGGREGATE_OFF (2)");
  return static_cast<Aggregation>(mode);
}

// Both unstructured creators; `mode` unset: GHOSTWIRE_AGGREGATE decides.
void create_unstructured(gw_world_t world, gw_segment_t owned, size_t owned_offset_bytes, size_t owned_count,
                         void* ghosts, size_t ghost_count, const int* owners, const size_t* indices,
                         size_t element_size, std::optional<Aggregation> mode, gw_plan_t* plan) {
  require(world, "world");
  require(owned, "owned");
  require(plan, "plan");
  if (ghost_count) {
    require(owners, "owners");
    require(indices, "indices");
    require(ghosts, "ghosts");
  }
  GhostMap map;
  map.owner.assign(owners, owners + ghost_count);
  map.index.assign(indices, indices + ghost_count);
  *plan = new gw_plan(make_unstructured_plan(world->world, owned->segment, owned_offset_bytes, owned_count, ghosts,
                                             map, element_size, mode));
}

}  // namespace

extern "C" {

int gw_plan_create(gw_world_t world, const int* neighbours, int neighbour_count, size_t channels, gw_plan_t* plan) {
  return guarded([&] {
    require(world, "world");
    require(plan, "plan");
    if (neighbour_count < 0) raise(Errc::invalid_argument, "neighbour_count is negative");
    if (neighbour_count > 0) require(neighbours, "neighbours");
    std::span<const int> list(neighbours, static_cast<std::size_t>(neighbour_count));
    *plan = new gw_plan(Plan(world->world, list, channels));
  });
}

int gw_plan_destroy(gw_plan_t* plan) {
  return guarded([&] {
    require(plan, "plan");
    delete *plan;
    *plan = nullptr;
  });
}

int gw_plan_add_segment_memory(gw_plan_t p, gw_segment_t segment, size_t element_size, size_t offset_bytes,
                               size_t bytes, gw_region_t* region) {
  return guarded([&] {
    require(segment, "segment");
    require(region, "region");
    *region = plan_of(p).add_memory(segment->segment, element_size, offset_bytes, bytes).id;
  });
}

int gw_plan_add_private_memory(gw_plan_t p, void* base, size_t bytes, size_t element_size, gw_region_t* region) {
  return guarded([&] {
    require(region, "region");
    *region = plan_of(p).add_memory(base, bytes, element_size).id;
  });
}

int gw_plan_rebind(gw_plan_t p, gw_region_t region, void* base) {
  return guarded([&] { plan_of(p).rebind(Region{region}, base); });
}

int gw_plan_add_box(gw_plan_t p, int direction, size_t channel, int neighbour, gw_region_t region, size_t start,
                    int dimensions, const size_t* extents, const ptrdiff_t* strides) {
  return guarded([&] {
    if (dimensions < 1 || dimensions > 3)
      raise(Errc::invalid_argument, "dimensions " + std::to_string(dimensions) + ": a box has 1 to 3");
    require(extents, "extents");
    require(strides, "strides");
    auto count = static_cast<std::size_t>(dimensions);
    add_piece(p, direction, channel, neighbour, region,
              Layout::box(start, std::span<const std::size_t>(extents, count), std::span<const std::ptrdiff_t>(strides, count)));
  });
}

int gw_plan_add_indices(gw_plan_t p, int direction, size_t channel, int neighbour, gw_region_t region, size_t count,
                        const size_t* indices) {
  return guarded([&] {
    if (count) require(indices, "indices");
    add_piece(p, direction, channel, neighbour, region, Layout::indices(std::vector<std::size_t>(indices, indices + count)));
  });
}

int gw_plan_add_ranges(gw_plan_t p, int direction, size_t channel, int neighbour, gw_region_t region, size_t count,
                       const size_t* starts, const size_t* counts) {
  return guarded([&] {
    if (count) {
      require(starts, "starts");
      require(counts, "counts");
    }
    std::vector<Layout::Range> ranges(count);
    for (std::size_t i = 0; i < count; ++i) ranges[i] = {starts[i], counts[i]};
    add_piece(p, direction, channel, neighbour, region, Layout::ranges(std::move(ranges)));
  });
}

int gw_plan_commit(gw_plan_t p) {
  return guarded([&] { plan_of(p).commit(); });
}
int gw_plan_send(gw_plan_t p, size_t channel, int neighbour) {
  return guarded([&] { plan_of(p).send(channel, neighbour); });
}
int gw_plan_try_send(gw_plan_t p, size_t channel, int neighbour, int* sent) {
  return guarded([&] {
    require(sent, "sent");
    *sent = plan_of(p).try_send(channel, neighbour) ? 1 : 0;
  });
}
int gw_plan_test_recv(gw_plan_t p, size_t channel, int neighbour, int* done) {
  return guarded([&] {
    require(done, "done");
    *done = plan_of(p).test_recv(channel, neighbour) ? 1 : 0;
  });
}
int gw_plan_wait_recv(gw_plan_t p, size_t channel, int neighbour) {
  return guarded([&] { plan_of(p).wait_recv(channel, neighbour); });
}
int gw_plan_test_send(gw_plan_t p, size_t channel, int neighbour, int* done) {
  return guarded([&] {
    require(done, "done");
    *done = plan_of(p).test_send(channel, neighbour) ? 1 : 0;
  });
}
int gw_plan_wait_send(gw_plan_t p, size_t channel, int neighbour) {
  return guarded([&] { plan_of(p).wait_send(channel, neighbour); });
}
int gw_plan_acknowledge_by_reply(gw_plan_t p) {
  return guarded([&] { plan_of(p).acknowledge_by_reply(); });
}
int gw_plan_aggregate(gw_plan_t p, int mode) {
  return guarded([&] { plan_of(p).aggregate(aggregation_of(mode, "gw_plan_aggregate")); });
}
int gw_plan_view(gw_plan_t p, size_t channel, int neighbour, const void** view) {
  return guarded([&] {
    require(view, "view");
    *view = plan_of(p).view(channel, neighbour);
  });
}
int gw_plan_test_recv_in_place(gw_plan_t p, size_t channel, int neighbour, int* done) {
  return guarded([&] {
    require(done, "done");
    *done = plan_of(p).test_recv_in_place(channel, neighbour) ? 1 : 0;
  });
}
int gw_plan_wait_recv_in_place(gw_plan_t p, size_t channel, int neighbour) {
  return guarded([&] { plan_of(p).wait_recv_in_place(channel, neighbour); });
}
int gw_plan_prefetch_recv(gw_plan_t p, size_t channel, int neighbour, size_t bytes) {
  return guarded([&] { plan_of(p).prefetch_recv(channel, neighbour, bytes); });
}
int gw_plan_prefetch_send(gw_plan_t p, size_t channel, int neighbour, size_t bytes) {
  return guarded([&] { plan_of(p).prefetch_send(channel, neighbour, bytes); });
}
int gw_plan_read_in_place(gw_plan_t p, size_t channel, int neighbour, void (*use)(void*, const void*), void* context) {
  return guarded([&] {
    if (use == nullptr) raise(Errc::invalid_argument, "gw_plan_read_in_place: use is NULL");
    plan_of(p).read_in_place(channel, neighbour, [&](const std::byte* message) { use(context, message); });
  });
}
int gw_plan_intra_path(gw_plan_t p, const char* name) {
  return guarded([&] {
    require(name, "name");
    plan_of(p).intra_path(name);
  });
}
int gw_plan_send_path(gw_plan_t p, size_t channel, int neighbour, char* name, size_t capacity) {
  return guarded([&] { ghostwire::capi::copy_text(plan_of(p).send_path(channel, neighbour), name, capacity); });
}
int gw_plan_receive_path(gw_plan_t p, size_t channel, int neighbour, char* name, size_t capacity) {
  return guarded([&] { ghostwire::capi::copy_text(plan_of(p).receive_path(channel, neighbour), name, capacity); });
}
int gw_plan_release(gw_plan_t p, size_t channel, int neighbour) {
  return guarded([&] { plan_of(p).release(channel, neighbour); });
}
int gw_plan_acknowledge(gw_plan_t p, size_t channel, int neighbour) {
  return guarded([&] { plan_of(p).acknowledge(channel, neighbour); });
}
int gw_plan_partition(gw_plan_t p, int direction, size_t channel, int neighbour, size_t count,
                      const size_t* elements) {
  return guarded([&] {
    ghostwire::Plan& plan = plan_of(p);
    const bool sending = direction_is_send(direction, "gw_plan_partition");
    if (elements != nullptr) {
      const std::span<const size_t> counts(elements, count);
      sending ? plan.partition_send(channel, neighbour, counts) : plan.partition_receive(channel, neighbour, counts);
    } else {
      sending ? plan.partition_send(channel, neighbour, count) : plan.partition_receive(channel, neighbour, count);
    }
  });
}
int gw_plan_partitions(gw_plan_t p, int direction, size_t channel, int neighbour, size_t* count) {
  return guarded([&] {
    require(count, "count");
    ghostwire::Plan& plan = plan_of(p);
    *count = direction_is_send(direction, "gw_plan_partitions") ? plan.send_partitions(channel, neighbour)
                                                               : plan.receive_partitions(channel, neighbour);
  });
}
int gw_plan_pready(gw_plan_t p, size_t channel, int neighbour, size_t partition) {
  return guarded([&] { plan_of(p).pready(channel, neighbour, partition); });
}
int gw_plan_parrived(gw_plan_t p, size_t channel, int neighbour, size_t partition, int* arrived) {
  return guarded([&] {
    require(arrived, "arrived");
    *arrived = plan_of(p).parrived(channel, neighbour, partition) ? 1 : 0;
  });
}
int gw_plan_test_send_partition(gw_plan_t p, size_t channel, int neighbour, size_t partition, int* done) {
  return guarded([&] {
    require(done, "done");
    *done = plan_of(p).test_send(channel, neighbour, partition) ? 1 : 0;
  });
}
int gw_plan_wait_send_partition(gw_plan_t p, size_t channel, int neighbour, size_t partition) {
  return guarded([&] { plan_of(p).wait_send(channel, neighbour, partition); });
}
int gw_plan_exchange_share(gw_plan_t p, size_t thread, size_t threads) {
  return guarded([&] { plan_of(p).exchange_share(thread, threads); });
}
int gw_plan_exchange(gw_plan_t p) {
  return guarded([&] { plan_of(p).exchange(); });
}
int gw_plan_start(gw_plan_t p) {
  return guarded([&] { plan_of(p).start(); });
}
int gw_plan_finish(gw_plan_t p) {
  return guarded([&] { plan_of(p).finish(); });
}
int gw_plan_enable_reverse(gw_plan_t p) {
  return guarded([&] { plan_of(p).enable_reverse(); });
}
int gw_plan_reverse_exchange(gw_plan_t p, int op, int type) {
  return guarded([&] {
    const Combine how{reduce_op(op, "gw_plan_reverse_exchange", true), scalar_type(type, "gw_plan_reverse_exchange")};
    plan_of(p).reverse_exchange(how);
  });
}
int gw_plan_reverse_start(gw_plan_t p) {
  return guarded([&] { plan_of(p).reverse_start(); });
}
int gw_plan_reverse_finish(gw_plan_t p, int op, int type) {
  return guarded([&] {
    const Combine how{reduce_op(op, "gw_plan_reverse_finish", true), scalar_type(type, "gw_plan_reverse_finish")};
    plan_of(p).reverse_finish(how);
  });
}
int gw_plan_reverse_exchange_regions(gw_plan_t p, size_t count, const int* ops, const int* types) {
  return guarded([&] {
    if (count > 0) {
      require(ops, "ops");
      require(types, "types");
    }
    std::vector<Combine> how;
    for (size_t i = 0; i < count; ++i)
      how.push_back({reduce_op(ops[i], "gw_plan_reverse_exchange_regions", true),
                     scalar_type(types[i], "gw_plan_reverse_exchange_regions")});
    plan_of(p).reverse_exchange(std::span<const Combine>(how));
  });
}
int gw_plan_exchange_channel(gw_plan_t p, size_t channel) {
  return guarded([&] { plan_of(p).exchange(channel); });
}
int gw_plan_start_channel(gw_plan_t p, size_t channel) {
  return guarded([&] { plan_of(p).start(channel); });
}
int gw_plan_finish_channel(gw_plan_t p, size_t channel) {
  return guarded([&] { plan_of(p).finish(channel); });
}

int gw_plan_describe(gw_plan_t p, char* text, size_t capacity) {
  return guarded([&] { ghostwire::capi::copy_text(plan_of(p).describe(), text, capacity); });
}

int gw_plan_create_unstructured(gw_world_t world, gw_segment_t owned, size_t owned_offset_bytes, size_t owned_count,
                                void* ghosts, size_t ghost_count, const int* owners, const size_t* indices,
                                size_t element_size, gw_plan_t* plan) {
  return guarded([&] {
    create_unstructured(world, owned, owned_offset_bytes, owned_count, ghosts, ghost_count, owners, indices,
                        element_size, std::nullopt, plan);
  });
}

int gw_plan_create_unstructured_aggregate(gw_world_t world, gw_segment_t owned, size_t owned_offset_bytes,
                                          size_t owned_count, void* ghosts, size_t ghost_count, const int* owners,
                                          const size_t* indices, size_t element_size, int mode, gw_plan_t* plan) {
  return guarded([&] {
    create_unstructured(world, owned, owned_offset_bytes, owned_count, ghosts, ghost_count, owners, indices,
                        element_size, aggregation_of(mode, "gw_plan_create_unstructured_aggregate"), plan);
  });
}

}  // extern "C"
