// SPDX-License-Identifier: BSD-3-Clause
// A ghostwire::Grid<T, N> of any of the binding's element types and dimensions behind one
// interface, so that the Python Grid is one class.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <string>

#include "common.hpp"
#include "ghostwire/dist.hpp"

namespace ghostwire::python {

// What the Python Grid asks of the C++ grid: the geometry of the local block and the collective
// operations.
class AnyGrid {
 public:
  virtual ~AnyGrid() = default;
  virtual int dimensions() const = 0;
  virtual GridBase& base() = 0;
  virtual std::byte* origin() = 0;              // local cell (0, ..., 0)
  virtual Index stride(int d) const = 0;        // elements
  virtual Index local_extent(int d) const = 0;  // owned cells
  virtual Index offset(int d) const = 0;        // global coordinate of local 0
  virtual Index extent(int d) const = 0;        // global cells
  virtual Index width(int d) const = 0;         // ghost cells on each side
  virtual bool periodic(int d) const = 0;
  virtual Stencil stencil() const = 0;
  virtual int team_extent(int d) const = 0;
  virtual int position(int d, int rank) const = 0;  // team coordinate of the block `rank` computes
  // Collective; the result as a Python int or float.
  virtual py::object reduce(ReduceOp op) = 0;
};

struct GridRequest {
  Element element;
  std::array<Index, 3> extents{};
  std::array<Index, 3> width{};
  std::array<bool, 3> periodic{};
  int dimensions = 0;
  Stencil stencil = Stencil::faces;
  Placement placement = Placement::automatic;
};

// From Grid(world, shape, halo, dtype, periodic, stencil, placement)'s arguments; throws
// Error(invalid_argument) naming the argument that is wrong.
GridRequest request_of(const py::handle& shape, const py::handle& halo, const py::handle& dtype,
                       const py::handle& periodic, const std::string& stencil, const std::string& placement);

// Collective over `world`.
std::unique_ptr<AnyGrid> make_grid(World& world, const GridRequest& request);

}  // namespace ghostwire::python
