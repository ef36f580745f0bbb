// SPDX-License-Identifier: BSD-3-Clause
// The twelve Grid<T, N> instances behind AnyGrid (four element types, one to three dimensions).
#include <cstdint>

#include "grid_any.hpp"

namespace ghostwire::python {

namespace {

template <class T, int N>
class GridOf final : public AnyGrid {
 public:
  GridOf(World& world, const GridRequest& r) : grid_(world, point(r.extents), halo(r), r.placement) {}

  int dimensions() const override { return N; }
  GridBase& base() override { return grid_; }
  std::byte* origin() override { return reinterpret_cast<std::byte*>(grid_.data()); }
  Index stride(int d) const override { return grid_.stride(d); }
  Index local_extent(int d) const override { return grid_.local_extent(d); }
  Index offset(int d) const override { return grid_.offset()[static_cast<std::size_t>(d)]; }
  Index extent(int d) const override { return grid_.extent(d); }
  Index width(int d) const override { return grid_.halo().width[static_cast<std::size_t>(d)]; }
  bool periodic(int d) const override { return grid_.halo().periodic[static_cast<std::size_t>(d)]; }
  Stencil stencil() const override { return grid_.halo().stencil; }
  int team_extent(int d) const override { return grid_.pattern().team().extent(d); }
  int position(int d, int rank) const override {
    return grid_.pattern().team().coords(rank)[static_cast<std::size_t>(d)];
  }
  py::object reduce(ReduceOp op) override {
    T value;
    {
      py::gil_scoped_release unlocked;
      value = ghostwire::reduce(grid_, op);
    }
    return py::cast(value);
  }

 private:
  static Point<N> point(const std::array<Index, 3>& values) {
    Point<N> p{};
    for (int d = 0; d < N; ++d) p[static_cast<std::size_t>(d)] = values[static_cast<std::size_t>(d)];
    return p;
  }
  static Halo<N> halo(const GridRequest& r) {
    Halo<N> h(point(r.width), r.stencil);
    for (int d = 0; d < N; ++d) h.periodic[static_cast<std::size_t>(d)] = r.periodic[static_cast<std::size_t>(d)];
    return h;
  }

  Grid<T, N> grid_;
};

template <class T>
std::unique_ptr<AnyGrid> make_of(World& world, const GridRequest& r) {
  switch (r.dimensions) {
    case 1: return std::make_unique<GridOf<T, 1>>(world, r);
    case 2: return std::make_unique<GridOf<T, 2>>(world, r);
    case 3: return std::make_unique<GridOf<T, 3>>(world, r);
  }
  invalid("Grid: shape has " + std::to_string(r.dimensions) + " dimensions, expected 1, 2 or 3");
}

}  // namespace

std::unique_ptr<AnyGrid> make_grid(World& world, const GridRequest& r) {
  switch (r.element) {
    case Element::float64: return make_of<double>(world, r);
    case Element::float32: return make_of<float>(world, r);
    case Element::int32: return make_of<std::int32_t>(world, r);
    case Element::int64: return make_of<std::int64_t>(world, r);
  }
  throw Error(Errc::internal, "Grid: unknown element type");
}

}  // namespace ghostwire::python
