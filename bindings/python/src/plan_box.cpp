// SPDX-License-Identifier: BSD-3-Clause
// A numpy index of integers and slices as a Layout::box (plan_box.hpp).
#include "plan_box.hpp"

#include <string>
#include <vector>

namespace ghostwire::python {

namespace {

// One dimension of the selection: its first index, how many, the step between them, and whether
// numpy keeps the dimension (a slice) or drops it (an integer).
struct Axis {
  py::ssize_t first = 0, count = 1, step = 1;
};

bool is_integer(const py::handle& item) { return !PyBool_Check(item.ptr()) && PyIndex_Check(item.ptr()); }
bool is_slice_or_ellipsis(const py::handle& item) {
  return py::isinstance<py::slice>(item) || item.is(py::ellipsis());
}

std::string type_name(const py::handle& item) { return std::string(py::str(py::type::of(item).attr("__name__"))); }

// The index as one item per dimension: the Ellipsis expanded, missing trailing dimensions whole.
std::vector<py::object> items_of(const py::handle& indices, py::ssize_t dimensions, const std::string& what) {
  std::vector<py::object> given;
  if (py::isinstance<py::tuple>(indices))
    for (const py::handle& item : indices) given.push_back(py::reinterpret_borrow<py::object>(item));
  else
    given.push_back(py::reinterpret_borrow<py::object>(indices));
  py::ssize_t ellipses = 0;
  for (const py::object& item : given) ellipses += item.is(py::ellipsis()) ? 1 : 0;
  if (ellipses > 1) invalid(what + ": an index may hold one Ellipsis (...), this one holds " + std::to_string(ellipses));
  const py::ssize_t named = static_cast<py::ssize_t>(given.size()) - ellipses;
  if (named > dimensions)
    throw Error(Errc::out_of_range, what + ": " + std::to_string(named) + " indices for an array of " +
                                        std::to_string(dimensions) + " dimension(s)");
  const py::object whole = py::slice(py::none(), py::none(), py::none());
  std::vector<py::object> items;
  for (const py::object& item : given) {
    if (!item.is(py::ellipsis())) {
      items.push_back(item);
      continue;
    }
    for (py::ssize_t d = 0; d < dimensions - named; ++d) items.push_back(whole);
  }
  while (static_cast<py::ssize_t>(items.size()) < dimensions) items.push_back(whole);
  return items;
}

Axis axis_of(const py::object& item, py::ssize_t extent, std::size_t d, const std::string& what) {
  const std::string where = what + ": dimension " + std::to_string(d);
  Axis axis;
  if (py::isinstance<py::slice>(item)) {
    py::ssize_t stop = 0;
    if (!py::reinterpret_borrow<py::slice>(item).compute(extent, &axis.first, &stop, &axis.step, &axis.count)) {
      const py::error_already_set refused;  // a step of 0, bounds that are no integers: takes Python's error
      invalid(where + ": " + std::string(py::str(refused.value())));
    }
    return axis;
  }
  if (!is_integer(item))
    invalid(where + ": expected an integer or a slice, got " + type_name(item) +
            " (a box is selected as numpy.s_[1:-1, 0]; an index list is a flat list of element numbers)");
  const py::ssize_t index = PyNumber_AsSsize_t(item.ptr(), PyExc_IndexError);
  if (index == -1 && PyErr_Occurred()) throw py::error_already_set();
  axis.first = index < 0 ? index + extent : index;
  if (axis.first < 0 || axis.first >= extent)
    throw Error(Errc::out_of_range, where + ": index " + std::to_string(index) + " is outside an extent of " +
                                        std::to_string(extent));
  return axis;
}

}  // namespace

bool is_box_index(const py::handle& indices) {
  if (is_slice_or_ellipsis(indices) || is_integer(indices)) return true;
  if (!py::isinstance<py::tuple>(indices)) return false;
  for (const py::handle& item : indices)
    if (is_slice_or_ellipsis(item)) return true;
  return false;
}

Layout box_of(const py::handle& indices, const py::array& array, const char* what) {
  const std::string context = std::string(what) + " " + std::string(py::str(py::repr(indices)));
  const py::ssize_t dimensions = array.ndim();
  const std::vector<py::object> items = items_of(indices, dimensions, context);
  // Elements between neighbours of each dimension of the C-contiguous array.
  std::vector<py::ssize_t> element_stride(static_cast<std::size_t>(dimensions), 1);
  for (py::ssize_t d = dimensions - 2; d >= 0; --d) element_stride[d] = element_stride[d + 1] * array.shape(d + 1);
  std::size_t start = 0;
  std::vector<std::size_t> extents;  // fastest first, as Layout::box takes them
  std::vector<std::ptrdiff_t> strides;
  bool empty = false;
  for (py::ssize_t d = dimensions - 1; d >= 0; --d) {
    const Axis axis = axis_of(items[d], array.shape(d), static_cast<std::size_t>(d), context);
    if (axis.count == 0) empty = true;
    if (axis.count > 0) start += static_cast<std::size_t>(axis.first * element_stride[d]);
    if (axis.count == 1) continue;  // one element: only where the box starts
    extents.push_back(static_cast<std::size_t>(axis.count));
    strides.push_back(axis.step * element_stride[d]);
  }
  if (empty) return Layout::box(0, {0}, {1});
  if (extents.size() > 3)
    invalid(context + ": selects a box of " + std::to_string(extents.size()) +
            " dimensions of more than one element; a plan's box has at most 3");
  if (extents.empty()) return Layout::box(start, {1}, {1});
  return Layout::box(start, extents, strides);
}

}  // namespace ghostwire::python
