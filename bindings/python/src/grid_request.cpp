// SPDX-License-Identifier: BSD-3-Clause
// Grid(...)'s Python arguments -> a GridRequest, every mistake named.
#include <string>

#include "grid_any.hpp"

namespace ghostwire::python {

namespace {

// An int (the same for every dimension) or one value per dimension.
template <class T>
std::array<T, 3> per_dimension(const py::handle& value, int dimensions, const char* what) {
  std::array<T, 3> out{};
  if (py::isinstance<py::sequence>(value) && !py::isinstance<py::str>(value)) {
    auto values = py::reinterpret_borrow<py::sequence>(value);
    if (static_cast<int>(values.size()) != dimensions)
      invalid(std::string("Grid: ") + what + " has " + std::to_string(values.size()) + " values for a " +
              std::to_string(dimensions) + "-d grid");
    for (int d = 0; d < dimensions; ++d) out[static_cast<std::size_t>(d)] = values[static_cast<std::size_t>(d)].cast<T>();
  } else {
    out.fill(value.cast<T>());
  }
  return out;
}

}  // namespace

GridRequest request_of(const py::handle& shape, const py::handle& halo, const py::handle& dtype,
                       const py::handle& periodic, const std::string& stencil, const std::string& placement) {
  GridRequest r;
  r.element = element_of(dtype, "Grid: dtype");
  if (!py::isinstance<py::sequence>(shape) || py::isinstance<py::str>(shape))
    invalid("Grid: shape must be a tuple of 1 to 3 ints, got " + std::string(py::repr(shape)));
  auto extents = py::reinterpret_borrow<py::sequence>(shape);
  r.dimensions = static_cast<int>(extents.size());
  if (r.dimensions < 1 || r.dimensions > 3)
    invalid("Grid: shape " + std::string(py::repr(shape)) + " has " + std::to_string(r.dimensions) +
            " dimensions, expected 1, 2 or 3");
  for (int d = 0; d < r.dimensions; ++d) {
    r.extents[static_cast<std::size_t>(d)] = extents[static_cast<std::size_t>(d)].cast<Index>();
    if (r.extents[static_cast<std::size_t>(d)] < 1)
      invalid("Grid: shape " + std::string(py::repr(shape)) + ": every extent must be at least 1");
  }
  r.width = per_dimension<Index>(halo, r.dimensions, "halo");
  for (int d = 0; d < r.dimensions; ++d)
    if (r.width[static_cast<std::size_t>(d)] < 0)
      invalid("Grid: halo " + std::string(py::repr(halo)) + ": widths must not be negative");
  r.periodic = per_dimension<bool>(periodic, r.dimensions, "periodic");
  if (stencil == "faces")
    r.stencil = Stencil::faces;
  else if (stencil == "full")
    r.stencil = Stencil::full;
  else
    invalid("Grid: stencil '" + stencil + "' is not one of 'faces' (5/7-point) or 'full' (9/27-point)");
  r.placement = placement_from_name(placement);
  return r;
}

}  // namespace ghostwire::python
