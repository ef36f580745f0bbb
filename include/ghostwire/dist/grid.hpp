// SPDX-License-Identifier: BSD-3-Clause
// Grid<T, N>: an N-d array (N = 1, 2, 3) distributed in blocks over the ranks, each block stored
// in a ghostwire Segment with a layer of ghost cells around it, so stencils index neighbours
// directly and halo updates fill the ghosts in place (one copy between node peers).
//
//   Grid<double, 2> u(world, {1024, 1024}, Halo<2>(1, Stencil::faces, Boundary::periodic));
//   u(i, j)          local cell; i in [-width, local_extent(0) + width), ghosts included
//   u.data()         pointer to local cell (0, 0); u.stride(0) elements between rows
//   u.at({gi, gj})   any global cell, as a GlobalRef (get/put)
//   u.update_halo()  fill the ghost cells from the neighbours (collective)
//
// Which rank computes which block follows the Placement (by default hierarchical when the machine
// has more than one node or the World's settings name a topology file, GHOSTWIRE_TOPOLOGY): gather
// or print by block position (global_box(), pattern().team().coords(rank)), not by rank.
//
// Constructing and destroying a grid is collective. Local indices are not range-checked (they
// are the hot path); global ones are. docs/dist.md, "Grids".
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "ghostwire/dist/box.hpp"
#include "ghostwire/dist/global_ref.hpp"
#include "ghostwire/dist/halo_update.hpp"
#include "ghostwire/dist/pattern.hpp"
#include "ghostwire/segment.hpp"
#include "ghostwire/world.hpp"

namespace ghostwire {

// Which ghost cells an update fills: the faces only (5-point, 7-point stencils) or the faces,
// edges and corners (9-point, 27-point).
enum class Stencil : std::uint8_t { faces, full };
// What lies beyond the grid's edge in a dimension: nothing (ghost cells there are never written,
// keep what you store: Dirichlet values), or the other end of the grid.
enum class Boundary : std::uint8_t { open, periodic };

template <int N>
struct Halo {
  Point<N> width{};              // ghost cells on each side, per dimension
  std::array<bool, N> periodic{};
  Stencil stencil = Stencil::faces;

  Halo() = default;
  explicit Halo(Index cells, Stencil shape = Stencil::faces, Boundary boundary = Boundary::open) : stencil(shape) {
    width.fill(cells);
    periodic.fill(boundary == Boundary::periodic);
  }
  Halo(const Point<N>& cells, Stencil shape = Stencil::faces, Boundary boundary = Boundary::open)
      : width(cells), stencil(shape) {
    periodic.fill(boundary == Boundary::periodic);
  }
  bool operator==(const Halo&) const = default;
};

// BLOCKED over the team with the fewest ghost cells per block, placed on the machine (collective
// over `world`; `periodic`: the halo wraps around in that dimension).
template <int N>
Pattern<N> make_pattern(World& world, const Point<N>& extents, Placement placement,
                        const std::array<bool, N>& periodic = {}) {
  std::array<Distribution, N> blocked;
  blocked.fill(BLOCKED);
  const TeamSpec<N> balanced = TeamSpec<N>::balanced(world.size(), extents);
  Point<N> block{};
  for (int d = 0; d < N; ++d) block[d] = (extents[d] + balanced.extent(d) - 1) / balanced.extent(d);
  return Pattern<N>(extents, blocked, TeamSpec<N>::placed(world, balanced.extents(), placement, periodic, block));
}

class GridBase;

namespace detail {
struct GridState;
// The library's own way to a grid's internals (defined in src/dist/grid_state.hpp); not part of
// the public API.
inline GridState& grid_state(GridBase& grid) noexcept;
inline const GridState& grid_state(const GridBase& grid) noexcept;
// A Halo<N> without the template.
struct HaloSpec {
  int dimensions = 0;
  Index width[3] = {0, 0, 0};
  bool periodic[3] = {false, false, false};
  Stencil stencil = Stencil::faces;
};
}  // namespace detail

// What every grid has regardless of its element type: storage, halo, updates.
class GridBase {
 public:
  GridBase(GridBase&&) noexcept;
  GridBase& operator=(GridBase&&) noexcept;
  ~GridBase();  // collective

  World& world() const noexcept;
  Segment& segment() const noexcept;
  std::size_t element_size() const noexcept;

  // Fills the ghost cells from the neighbours (collective; the first call builds the plan).
  void update_halo();
  // update_halo() by a team of threads, each calling it with its own `thread` in [0, threads)
  // (HaloUpdate::run_shared): returns on every thread once every ghost cell is filled.
  void update_halo_shared(std::size_t thread, std::size_t threads);
  // Starts it; the handle's wait() finishes it. See HaloUpdate for what must not be touched meanwhile.
  [[nodiscard]] HaloHandle update_halo_async();
  // The reverse: every ghost cell update_halo fills goes back to the cell it is filled from and is
  // combined into it (HaloUpdate::reverse_run; collective). Elements that are not double, float,
  // int32_t or int64_t need the Combine that says what they hold.
  void reverse_halo(ReduceOp op = ReduceOp::sum);
  void reverse_halo(Combine how);
  void barrier();
  std::string describe() const;

 protected:
  // `scalar`: the ScalarType of the elements, or -1 when they are none of the four.
  GridBase(World& world, const detail::PatternCore& pattern, const detail::HaloSpec& halo, std::size_t element_size,
           int scalar = -1);
  std::byte* origin() const noexcept;            // local cell (0, ..., 0)
  Index layout_stride(int d) const noexcept;     // in elements
  Index layout_extent(int d) const noexcept;     // owned cells
  Index layout_offset(int d) const noexcept;     // global coordinate of local 0
  GlobalAddress address(const Index* global) const;  // checks the coordinates

 private:
  friend detail::GridState& detail::grid_state(GridBase&) noexcept;
  friend const detail::GridState& detail::grid_state(const GridBase&) noexcept;
  std::unique_ptr<detail::GridState> state_;
};

template <class T, int N>
class Grid : public GridBase {
  static_assert(N >= 1 && N <= 3, "Grid: 1, 2 or 3 dimensions");
  static_assert(std::is_trivially_copyable_v<T>, "Grid: elements must be trivially copyable");

 public:
  using value_type = T;
  static constexpr int dimensions = N;

  // The pattern must be blocked (BLOCKED or NONE in every dimension) over world.size() ranks.
  Grid(World& world, const Pattern<N>& pattern, const Halo<N>& halo = Halo<N>())
      : GridBase(world, pattern.core(), spec(halo), sizeof(T), scalar_code()), pattern_(pattern), halo_(halo) {
    origin_ = reinterpret_cast<T*>(origin());
    for (int d = 0; d < N; ++d) {
      strides_[d] = layout_stride(d);
      local_extents_[d] = layout_extent(d);
      offset_[d] = layout_offset(d);
    }
  }
  // BLOCKED over the balanced team (make_pattern), placed on the machine: by default
  // hierarchically when a topology is known (Placement::automatic).
  Grid(World& world, const Point<N>& extents, const Halo<N>& halo = Halo<N>(),
       Placement placement = Placement::automatic)
      : Grid(world, make_pattern<N>(world, extents, placement, halo.periodic), halo) {}

  // Local cells, ghosts included: index d runs over [-halo().width[d], local_extent(d) + width).
  template <class... I>
    requires(sizeof...(I) == N && (std::is_integral_v<I> && ...))
  T& operator()(I... i) noexcept {
    return origin_[linear(i...)];
  }
  template <class... I>
    requires(sizeof...(I) == N && (std::is_integral_v<I> && ...))
  const T& operator()(I... i) const noexcept {
    return origin_[linear(i...)];
  }
  T& operator[](const Point<N>& local) noexcept { return origin_[linear(local)]; }
  const T& operator[](const Point<N>& local) const noexcept { return origin_[linear(local)]; }

  // For hot loops: pointer to local cell (0, ..., 0) and the element distance per dimension
  // (stride(N - 1) is 1).
  T* data() noexcept { return origin_; }
  const T* data() const noexcept { return origin_; }
  Index stride(int d) const noexcept { return strides_[d]; }
  const Point<N>& strides() const noexcept { return strides_; }

  Index local_extent(int d) const noexcept { return local_extents_[d]; }
  const Point<N>& local_extents() const noexcept { return local_extents_; }
  Box<N> local_box() const noexcept { return {Point<N>{}, local_extents_}; }  // owned cells, local coordinates
  Box<N> global_box() const noexcept { return {offset_, local_extents_}; }    // owned cells, global coordinates
  const Point<N>& offset() const noexcept { return offset_; }                // global coordinates of local 0
  Point<N> to_global(const Point<N>& local) const noexcept { return shifted(local, 1); }
  Point<N> to_local(const Point<N>& global) const noexcept { return shifted(global, -1); }
  // The owned cells inside a global box, in local coordinates (empty if none).
  Box<N> local_range(const Box<N>& global) const noexcept {
    Box<N> b = global_box().intersect(global);
    b.low = to_local(b.low);
    return b;
  }

  const Point<N>& extents() const noexcept { return pattern_.extents(); }
  Index extent(int d) const noexcept { return pattern_.extent(d); }
  Index size() const noexcept { return pattern_.size(); }
  const Pattern<N>& pattern() const noexcept { return pattern_; }
  const Halo<N>& halo() const noexcept { return halo_; }

  // Any cell of the grid by global coordinates (owned cells only, not ghosts); throws
  // Error(out_of_range) outside extents().
  GlobalRef<T> at(const Point<N>& global) const { return GlobalRef<T>(address(global.data())); }

 private:
  static constexpr int scalar_code() {
    if constexpr (is_scalar_type_v<T>) return static_cast<int>(scalar_type_of<T>());
    else return -1;
  }
  static detail::HaloSpec spec(const Halo<N>& halo) {
    detail::HaloSpec s;
    s.dimensions = N;
    for (int d = 0; d < N; ++d) {
      s.width[d] = halo.width[d];
      s.periodic[d] = halo.periodic[d];
    }
    s.stencil = halo.stencil;
    return s;
  }
  template <class... I>
  Index linear(I... i) const noexcept {
    const Index index[] = {static_cast<Index>(i)...};
    Index at = index[N - 1];
    for (int d = 0; d < N - 1; ++d) at += index[d] * strides_[d];
    return at;
  }
  Index linear(const Point<N>& p) const noexcept {
    Index at = p[N - 1];
    for (int d = 0; d < N - 1; ++d) at += p[d] * strides_[d];
    return at;
  }
  Point<N> shifted(Point<N> p, Index sign) const noexcept {
    for (int d = 0; d < N; ++d) p[d] += sign * offset_[d];
    return p;
  }

  Pattern<N> pattern_;
  Halo<N> halo_;
  T* origin_ = nullptr;
  Point<N> strides_{}, local_extents_{}, offset_{};
};

}  // namespace ghostwire
