// SPDX-License-Identifier: BSD-3-Clause
// What the binding's source files share: the objects that can be closed, the dtype names, the
// checks of numpy arrays passed in, and one bind_* function per file.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <string>

#include "ghostwire/combine.hpp"
#include "ghostwire/error.hpp"

namespace ghostwire::python {

namespace py = pybind11;

// A World, Grid or Plan: collective to destroy, so the module closes every one still open at
// interpreter exit (before MPI is finalised), newest first, the same order on every rank.
class Closable {
 public:
  Closable();
  virtual ~Closable();
  Closable(const Closable&) = delete;
  Closable& operator=(const Closable&) = delete;
  virtual void close() = 0;
  // At interpreter exit (close_all): as close(), without the refusals that only protect Python
  // objects which go with the interpreter (a Grid's numpy views), and without asking the other
  // ranks (every rank closes every object then, in the same order).
  virtual void close_at_exit() { close(); }
};
void close_all();

// The element types grids, plans and allreduce accept.
enum class Element { float64, float32, int32, int64 };
// numpy.float64, "float64", numpy.dtype(...): anything numpy.dtype() takes. Throws
// Error(invalid_argument) naming the accepted types otherwise.
Element element_of(const py::handle& dtype, const char* what);
py::dtype dtype_of(Element element);
// The number type a reverse exchange combines an Element as (the same four, in the same order).
inline ScalarType scalar_of(Element element) { return static_cast<ScalarType>(element); }
// "sum", "min", "max" (and "replace" where allowed) as a ReduceOp; Error(invalid_argument) naming
// `what` otherwise.
ReduceOp reduce_op_of(const std::string& name, const char* what, bool replace_allowed);
const char* element_name(Element element);
std::size_t element_size(Element element);

// `array` must be a numpy array of `element`, C-contiguous and writeable: otherwise
// Error(invalid_argument) naming `what`, what it is and what is expected.
py::array require_array(const py::handle& array, Element element, const char* what);

[[noreturn]] void invalid(const std::string& message);

void bind_errors(py::module_& m);
void bind_world(py::module_& m);
void bind_grid(py::module_& m);
void bind_plan(py::module_& m);  // binds UnstructuredPlan too
void bind_unstructured_plan(py::module_& m);
void bind_collective(py::module_& m);
void bind_views(py::module_& m);  // views.hpp

}  // namespace ghostwire::python
