// SPDX-License-Identifier: BSD-3-Clause
// Element types and the checks of numpy arrays handed to ghostwire: the library reads and writes
// them in place, so a wrong type, a copy or a strided view would be silent corruption.
#include <cstdint>
#include <string>

#include "common.hpp"

namespace ghostwire::python {

namespace {
const char* const accepted = "float64, float32, int32 or int64";

// The same kind of numbers of the same size in this machine's byte order.
bool same(const py::dtype& a, const py::dtype& b) {
  return a.kind() == b.kind() && a.itemsize() == b.itemsize() && a.attr("isnative").cast<bool>() &&
         b.attr("isnative").cast<bool>();
}
}  // namespace

ReduceOp reduce_op_of(const std::string& name, const char* what, bool replace_allowed) {
  if (name == "sum") return ReduceOp::sum;
  if (name == "min") return ReduceOp::min;
  if (name == "max") return ReduceOp::max;
  if (name == "replace" && replace_allowed) return ReduceOp::replace;
  invalid(std::string(what) + ": op '" + name + "' is not one of 'sum', 'min', 'max'" +
          (replace_allowed ? ", 'replace'" : ""));
}

Element element_of(const py::handle& dtype, const char* what) {
  py::dtype type;
  try {
    type = py::dtype::from_args(py::reinterpret_borrow<py::object>(dtype));
  } catch (const py::error_already_set&) {
    invalid(std::string(what) + ": " + std::string(py::repr(dtype)) + " is not a numpy dtype (expected " + accepted +
            ")");
  }
  for (Element e : {Element::float64, Element::float32, Element::int32, Element::int64})
    if (same(type, dtype_of(e))) return e;
  invalid(std::string(what) + ": dtype " + std::string(py::str(py::handle(type))) + " is not supported (expected " + accepted + ")");
}

py::dtype dtype_of(Element element) {
  switch (element) {
    case Element::float64: return py::dtype::of<double>();
    case Element::float32: return py::dtype::of<float>();
    case Element::int32: return py::dtype::of<std::int32_t>();
    case Element::int64: return py::dtype::of<std::int64_t>();
  }
  throw Error(Errc::internal, "dtype_of: unknown element type");
}

const char* element_name(Element element) {
  switch (element) {
    case Element::float64: return "float64";
    case Element::float32: return "float32";
    case Element::int32: return "int32";
    case Element::int64: return "int64";
  }
  return "?";
}

std::size_t element_size(Element element) {
  return element == Element::float64 || element == Element::int64 ? 8 : 4;
}

py::array require_array(const py::handle& object, Element element, const char* what) {
  if (!py::isinstance<py::array>(object))
    invalid(std::string(what) + ": expected a numpy array of " + element_name(element) + ", got " +
            std::string(py::str(py::type::of(object))));
  auto array = py::reinterpret_borrow<py::array>(object);
  if (!same(array.dtype(), dtype_of(element)))
    invalid(std::string(what) + ": dtype " + std::string(py::str(py::handle(array.dtype()))) + ", expected " +
            element_name(element));
  if (!(array.flags() & py::array::c_style))
    invalid(std::string(what) + ": the array is not C-contiguous (a strided view or a transpose); pass "
            "numpy.ascontiguousarray(...) and copy back, ghostwire reads and writes arrays in place");
  if (!array.writeable()) invalid(std::string(what) + ": the array is read-only");
  return array;
}

}  // namespace ghostwire::python
