// SPDX-License-Identifier: BSD-3-Clause
// The bases of numpy views of collectively freed memory, and close()'s agreement over the ranks
// (views.hpp: the invariant; docs/python.md, "How it works").
#include "views.hpp"

#include <span>
#include <string>
#include <utility>

#include "ghostwire/collective.hpp"
#include "ghostwire/world.hpp"

namespace ghostwire::python {

py::array view_of(const py::object& owner, ViewCount& count, const py::dtype& type, std::vector<py::ssize_t> shape,
                  std::vector<py::ssize_t> strides, void* first) {
  py::object base = py::cast(new ViewBase(owner, count), py::return_value_policy::take_ownership);
  return py::array(type, std::move(shape), std::move(strides), first, base);
}

InUse in_use_on_all_ranks(World& world, InUse mine) {
  std::int64_t counts[2] = {mine.views, mine.pending};
  allreduce(world, std::span<std::int64_t>(counts), ReduceOp::sum);
  return {counts[0], counts[1]};
}

void refuse_close_with_views(const char* call, const char* owner, const char* sources, std::int64_t mine,
                             std::int64_t all) {
  throw Error(Errc::state, std::string(call) + ": " + std::to_string(mine) + " numpy view(s) of this " + owner +
                               " are alive on this rank (" + std::to_string(all) +
                               " on all ranks): arrays from " + sources +
                               ", or made from them, point into the memory close() frees; del them, or keep "
                               "copies (numpy.array(view)), then close() again (on every rank)");
}

void bind_views(py::module_& m) {
  py::class_<ViewBase>(m, "ViewBase",
                       "The base of a numpy view of a Grid's memory: keeps the Grid alive, and is counted so "
                       "that the Grid's close() is refused while the view is alive.")
      .def_property_readonly("owner", &ViewBase::owner, "The Grid whose memory the view shows.")
      .def("__repr__", [](const ViewBase& base) {
        return "<ghostwire.ViewBase of " + std::string(py::repr(base.owner())) + ">";
      });
}

}  // namespace ghostwire::python
