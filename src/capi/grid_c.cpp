// SPDX-License-Identifier: BSD-3-Clause
// C API of distributed grids and halo updates (dist/grid.hpp, dist/halo_update.hpp).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "c_api_support.hpp"
#include "ghostwire/dist/grid.hpp"
#include "ghostwire/dist/halo_update.hpp"
#include "ghostwire/ghostwire.h"
#include "runtime_handles.hpp"

using namespace ghostwire;
using ghostwire::capi::guarded;
using ghostwire::capi::reduce_op;
using ghostwire::capi::require;
using ghostwire::capi::scalar_type;

// A grid of any element type and dimension count, with what the C API reports cached.
struct gw_grid {
  virtual ~gw_grid() = default;
  virtual GridBase& base() = 0;
  int type = GW_DOUBLE;
  int dimensions = 0;
  void* data = nullptr;
  std::int64_t extents[3] = {0, 0, 0}, local_extents[3] = {0, 0, 0}, strides[3] = {0, 0, 0},
               offset[3] = {0, 0, 0}, widths[3] = {0, 0, 0};
  int team[3] = {1, 1, 1};
};
struct gw_halo_update {
  HaloUpdate update;
  explicit gw_halo_update(HaloUpdate&& u) : update(std::move(u)) {}
};
struct gw_halo_handle {
  HaloHandle handle;
  explicit gw_halo_handle(HaloHandle&& h) : handle(std::move(h)) {}
};

namespace {

template <class T, int N>
struct GridOf final : gw_grid {
  Grid<T, N> grid;
  GridOf(World& world, const Pattern<N>& pattern, const Halo<N>& halo) : grid(world, pattern, halo) {
    dimensions = N;
    data = grid.data();
    for (int d = 0; d < N; ++d) {
      extents[d] = grid.extent(d);
      local_extents[d] = grid.local_extent(d);
      strides[d] = grid.stride(d);
      offset[d] = grid.offset()[d];
      widths[d] = halo.width[d];
      team[d] = pattern.team().extent(d);
    }
  }
  GridBase& base() override { return grid; }
};

struct GridRequest {
  World* world;
  const std::int64_t* extents;
  const int* process_grid;
  const std::int64_t* widths;
  const int* periodic;
  Stencil stencil;
};

template <class T, int N>
gw_grid* make_grid(const GridRequest& r) {
  Point<N> extents{};
  std::array<Distribution, N> blocked;
  blocked.fill(BLOCKED);
  Halo<N> halo;
  halo.stencil = r.stencil;
  for (int d = 0; d < N; ++d) {
    extents[d] = r.extents[d];
    halo.width[d] = r.widths ? r.widths[d] : 0;
    halo.periodic[d] = r.periodic && r.periodic[d] != 0;
  }
  std::array<int, N> team{};
  for (int d = 0; d < N && r.process_grid; ++d) team[d] = r.process_grid[d];
  return new GridOf<T, N>(*r.world,
                          r.process_grid ? Pattern<N>(extents, blocked, TeamSpec<N>(team))
                                         : make_pattern<N>(extents, r.world->size()),
                          halo);
}

template <class T>
gw_grid* make_grid(int dimensions, const GridRequest& r) {
  switch (dimensions) {
    case 1: return make_grid<T, 1>(r);
    case 2: return make_grid<T, 2>(r);
    case 3: return make_grid<T, 3>(r);
    default:
      raise(Errc::invalid_argument, "dimensions " + std::to_string(dimensions) + ": a grid has 1 to 3");
  }
}

gw_grid& grid_of(gw_grid_t g) {
  require(g, "grid");
  return *g;
}

void copy_values(const std::int64_t* from, int count, std::int64_t* to, const char* name) {
  require(to, name);
  for (int d = 0; d < count; ++d) to[d] = from[d];
}

HaloUpdate& update_of(gw_halo_update_t u) {
  require(u, "update");
  return u->update;
}

void hand_out(HaloHandle&& pending, gw_halo_handle_t* handle) {
  *handle = new gw_halo_handle(std::move(pending));
}

}  // namespace

extern "C" {

int gw_grid_create(gw_world_t world, int type, int dimensions, const int64_t* extents, const int* process_grid,
                   const int64_t* halo_widths, const int* periodic, int stencil, gw_grid_t* grid) {
  return guarded([&] {
    require(world, "world");
    require(extents, "extents");
    require(grid, "grid");
    if (stencil != GW_STENCIL_FACES && stencil != GW_STENCIL_FULL)
      raise(Errc::invalid_argument,
            "stencil " + std::to_string(stencil) + ": expected GW_STENCIL_FACES or GW_STENCIL_FULL");
    GridRequest r{&world->world, extents, process_grid, halo_widths, periodic,
                  stencil == GW_STENCIL_FULL ? Stencil::full : Stencil::faces};
    gw_grid* made = nullptr;
    switch (type) {
      case GW_DOUBLE: made = make_grid<double>(dimensions, r); break;
      case GW_FLOAT: made = make_grid<float>(dimensions, r); break;
      case GW_INT32: made = make_grid<std::int32_t>(dimensions, r); break;
      case GW_INT64: made = make_grid<std::int64_t>(dimensions, r); break;
      default:
        raise(Errc::invalid_argument,
              "type " + std::to_string(type) + ": expected GW_DOUBLE, GW_FLOAT, GW_INT32 or GW_INT64");
    }
    made->type = type;
    *grid = made;
  });
}

int gw_grid_destroy(gw_grid_t* grid) {
  return guarded([&] {
    require(grid, "grid");
    delete *grid;
    *grid = nullptr;
  });
}

int gw_grid_type(gw_grid_t g, int* type) {
  return guarded([&] {
    require(type, "type");
    *type = grid_of(g).type;
  });
}
int gw_grid_dimensions(gw_grid_t g, int* dimensions) {
  return guarded([&] {
    require(dimensions, "dimensions");
    *dimensions = grid_of(g).dimensions;
  });
}
int gw_grid_data(gw_grid_t g, void** data) {
  return guarded([&] {
    require(data, "data");
    *data = grid_of(g).data;
  });
}
int gw_grid_extents(gw_grid_t g, int64_t* extents) {
  return guarded([&] { copy_values(grid_of(g).extents, g->dimensions, extents, "extents"); });
}
int gw_grid_local_extents(gw_grid_t g, int64_t* extents) {
  return guarded([&] { copy_values(grid_of(g).local_extents, g->dimensions, extents, "extents"); });
}
int gw_grid_strides(gw_grid_t g, int64_t* strides) {
  return guarded([&] { copy_values(grid_of(g).strides, g->dimensions, strides, "strides"); });
}
int gw_grid_offset(gw_grid_t g, int64_t* offset) {
  return guarded([&] { copy_values(grid_of(g).offset, g->dimensions, offset, "offset"); });
}
int gw_grid_halo_widths(gw_grid_t g, int64_t* widths) {
  return guarded([&] { copy_values(grid_of(g).widths, g->dimensions, widths, "widths"); });
}
int gw_grid_process_grid(gw_grid_t g, int* ranks) {
  return guarded([&] {
    require(ranks, "ranks");
    for (int d = 0; d < grid_of(g).dimensions; ++d) ranks[d] = g->team[d];
  });
}

int gw_grid_update_halo(gw_grid_t g) {
  return guarded([&] { grid_of(g).base().update_halo(); });
}
int gw_grid_update_halo_shared(gw_grid_t g, size_t thread, size_t threads) {
  return guarded([&] { grid_of(g).base().update_halo_shared(thread, threads); });
}
int gw_grid_update_halo_start(gw_grid_t g, gw_halo_handle_t* handle) {
  return guarded([&] {
    require(handle, "handle");
    hand_out(grid_of(g).base().update_halo_async(), handle);
  });
}
int gw_grid_reverse_halo(gw_grid_t g, int op) {
  return guarded([&] { grid_of(g).base().reverse_halo(reduce_op(op, "gw_grid_reverse_halo", true)); });
}
int gw_halo_wait(gw_halo_handle_t* handle) {
  return guarded([&] {
    require(handle, "handle");
    require(*handle, "*handle");
    std::unique_ptr<gw_halo_handle> owned(*handle);
    *handle = nullptr;
    owned->handle.wait();
  });
}
int gw_grid_describe(gw_grid_t g, char* text, size_t capacity) {
  return guarded([&] { ghostwire::capi::copy_text(grid_of(g).base().describe(), text, capacity); });
}

int gw_halo_update_create(const gw_grid_t* grids, size_t count, const int64_t* depth_low, const int64_t* depth_high,
                          int messages, gw_halo_update_t* update) {
  return guarded([&] {
    require(update, "update");
    if (count) require(grids, "grids");
    if ((depth_low == nullptr) != (depth_high == nullptr))
      raise(Errc::invalid_argument, "depth_low and depth_high: give both or neither");
    if (messages != GW_PER_NEIGHBOUR && messages != GW_PER_VARIABLE)
      raise(Errc::invalid_argument,
            "messages " + std::to_string(messages) + ": expected GW_PER_NEIGHBOUR or GW_PER_VARIABLE");
    std::vector<HaloPart> parts;
    parts.reserve(count);
    for (std::size_t g = 0; g < count; ++g) {
      if (grids[g] == nullptr) raise(Errc::invalid_argument, "grids[" + std::to_string(g) + "] is NULL");
      HaloDepth depth;
      if (depth_low && depth_low[3 * g] >= 0) {
        auto n = static_cast<std::size_t>(grids[g]->dimensions);
        std::vector<Index> low(depth_low + 3 * g, depth_low + 3 * g + n), high(depth_high + 3 * g, depth_high + 3 * g + n);
        depth = HaloDepth::low_high(std::span<const Index>(low), std::span<const Index>(high));
      }
      parts.emplace_back(&grids[g]->base(), depth);
    }
    *update = new gw_halo_update(HaloUpdate(std::span<const HaloPart>(parts), messages == GW_PER_VARIABLE
                                                                                  ? HaloMessages::per_variable
                                                                                  : HaloMessages::per_neighbour));
  });
}
int gw_halo_update_destroy(gw_halo_update_t* update) {
  return guarded([&] {
    require(update, "update");
    delete *update;
    *update = nullptr;
  });
}
int gw_halo_update_run(gw_halo_update_t u) {
  return guarded([&] { update_of(u).run(); });
}
int gw_halo_update_run_shared(gw_halo_update_t u, size_t thread, size_t threads) {
  return guarded([&] { update_of(u).run_shared(thread, threads); });
}
int gw_halo_update_run_grid(gw_halo_update_t u, size_t grid) {
  return guarded([&] { update_of(u).run(grid); });
}
int gw_halo_update_start(gw_halo_update_t u, gw_halo_handle_t* handle) {
  return guarded([&] {
    require(handle, "handle");
    hand_out(update_of(u).start(), handle);
  });
}
int gw_halo_update_start_grid(gw_halo_update_t u, size_t grid, gw_halo_handle_t* handle) {
  return guarded([&] {
    require(handle, "handle");
    hand_out(update_of(u).start(grid), handle);
  });
}
int gw_halo_update_reverse_run(gw_halo_update_t u, int op) {
  return guarded([&] { update_of(u).reverse_run(reduce_op(op, "gw_halo_update_reverse_run", true)); });
}
int gw_halo_update_reverse_start(gw_halo_update_t u, int op, gw_halo_handle_t* handle) {
  return guarded([&] {
    require(handle, "handle");
    hand_out(update_of(u).reverse_start(reduce_op(op, "gw_halo_update_reverse_start", true)), handle);
  });
}
int gw_halo_update_describe(gw_halo_update_t u, char* text, size_t capacity) {
  return guarded([&] { ghostwire::capi::copy_text(update_of(u).describe(), text, capacity); });
}

}  // extern "C"
