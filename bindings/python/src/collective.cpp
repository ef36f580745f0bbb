// SPDX-License-Identifier: BSD-3-Clause
// ghostwire.allreduce(world, values, op="sum"): element-wise over the ranks, the same bits on every
// rank (include/ghostwire/collective.hpp). values: a float or int (the result is returned) or a
// C-contiguous numpy array of float64 or int64 (reduced in place and returned).
#include <cstdint>
#include <span>
#include <string>

#include "common.hpp"
#include "ghostwire/collective.hpp"
#include "world.hpp"

namespace ghostwire::python {

namespace {


template <class T>
void reduce_in_place(World& world, T* values, std::size_t count, ReduceOp op) {
  py::gil_scoped_release released;
  allreduce(world, std::span<T>(values, count), op);
}

}  // namespace

void bind_collective(py::module_& m) {
  m.def(
      "allreduce",
      [](const py::object& world_object, const py::object& values, const std::string& op_name) -> py::object {
        if (!py::isinstance<PyWorld>(world_object))
          invalid("allreduce: world must be a ghostwire.World, got " + std::string(py::str(py::type::of(world_object))));
        World& world = world_object.cast<PyWorld&>().get();
        const ReduceOp op = reduce_op_of(op_name, "allreduce", false);
        if (py::isinstance<py::array>(values)) {
          const py::dtype type = py::reinterpret_borrow<py::array>(values).dtype();
          const bool integer = type.kind() == 'i' || type.kind() == 'u';
          if ((integer && type.kind() != 'i') || type.itemsize() != 8)
            invalid("allreduce: values: dtype " + std::string(py::str(py::handle(type))) + " is not supported (expected float64 or int64)");
          const Element element = integer ? Element::int64 : Element::float64;
          py::array array = require_array(values, element, "allreduce: values");
          if (element == Element::int64)
            reduce_in_place(world, static_cast<std::int64_t*>(array.mutable_data()), static_cast<std::size_t>(array.size()), op);
          else
            reduce_in_place(world, static_cast<double*>(array.mutable_data()), static_cast<std::size_t>(array.size()), op);
          return array;
        }
        if (py::isinstance<py::bool_>(values)) invalid("allreduce: values: a bool; expected a float, an int or an array");
        if (py::isinstance<py::int_>(values)) {
          std::int64_t value = values.cast<std::int64_t>();
          reduce_in_place(world, &value, 1, op);
          return py::int_(value);
        }
        if (py::isinstance<py::float_>(values)) {
          double value = values.cast<double>();
          reduce_in_place(world, &value, 1, op);
          return py::float_(value);
        }
        invalid("allreduce: values: expected a float, an int or a numpy array of float64 or int64, got " +
                std::string(py::str(py::type::of(values))));
      },
      py::arg("world"), py::arg("values"), py::arg("op") = "sum",
      "Element-wise sum, min or max over the ranks (collective; the GIL is released while it waits).");
}

}  // namespace ghostwire::python
