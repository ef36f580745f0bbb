// SPDX-License-Identifier: BSD-3-Clause
// ghostwire.Grid: a distributed 1-3-d array whose local block, ghost cells included, is a numpy
// view (no copy). Invariant: no view outlives the grid's memory. The views keep the Grid object
// alive, and close() (collective) refuses on every rank while any rank has a view alive or an
// update not waited for (views.hpp; docs/python.md, "How it works").
#include <mpi.h>

#include <string>
#include <vector>

#include "common.hpp"
#include "grid_any.hpp"
#include "views.hpp"
#include "world.hpp"

namespace ghostwire::python {

class PyGrid final : public Closable {
 public:
  PyGrid(const py::object& world, const GridRequest& request) : world_(world), element_(request.element) {
    World& w = world_.get();
    py::gil_scoped_release unlocked;  // collective: other threads may run while the ranks meet
    grid_ = make_grid(w, request);
  }
  // Views and handles hold this object: none is left when it goes, so there is nothing to ask.
  ~PyGrid() override { release(); }
  void close() override {
    if (!grid_) return;
    const InUse all = in_use_on_all_ranks(world_.get(), {views_.alive, pending_});
    if (all.pending > 0)
      throw Error(Errc::state, "Grid.close: an update_halo_async() is not waited for (" +
                                   std::to_string(pending_) + " on this rank, " + std::to_string(all.pending) +
                                   " on all ranks); wait() for it first");
    if (all.views > 0) refuse_close_with_views("Grid.close", "grid", ".local or .interior", views_.alive, all.views);
    release();
  }
  void close_at_exit() override {
    if (!grid_) return;
    if (pending_ > 0) throw Error(Errc::state, "Grid.close: an update_halo_async() is not waited for");
    release();
  }

  AnyGrid& get() const {
    if (!grid_) throw Error(Errc::state, "Grid: used after close()");
    return *grid_;
  }
  bool closed() const noexcept { return !grid_; }
  Element element() const noexcept { return element_; }
  const py::object& world() const noexcept { return world_.object(); }
  int pending_ = 0;

  // The local block from `ghosts` cells before local 0 in every dimension, `ghosts` after the
  // owned ones; its base (a ViewBase) keeps `self` alive and counts the view.
  py::array view(const py::object& self, bool with_ghosts) {
    AnyGrid& g = get();
    const std::size_t size = element_size(element_);
    std::vector<py::ssize_t> shape, strides;
    std::byte* first = g.origin();
    for (int d = 0; d < g.dimensions(); ++d) {
      const Index ghosts = with_ghosts ? g.width(d) : 0;
      shape.push_back(g.local_extent(d) + 2 * ghosts);
      strides.push_back(g.stride(d) * static_cast<py::ssize_t>(size));
      first -= ghosts * g.stride(d) * static_cast<Index>(size);
    }
    return view_of(self, views_, dtype_of(element_), std::move(shape), std::move(strides), first);
  }

  py::tuple values(Index (AnyGrid::*of)(int) const) const {
    AnyGrid& g = get();
    py::tuple t(g.dimensions());
    for (int d = 0; d < g.dimensions(); ++d) t[static_cast<std::size_t>(d)] = (g.*of)(d);
    return t;
  }

 private:
  void release() noexcept {
    grid_.reset();
    world_.drop();
  }

  WorldUse world_;
  Element element_;
  std::unique_ptr<AnyGrid> grid_;
  ViewCount views_;
};

// An update_halo_async() under way; wait() fills the ghost cells.
class PyHaloHandle {
 public:
  PyHaloHandle(const PyHaloHandle&) = delete;
  PyHaloHandle& operator=(const PyHaloHandle&) = delete;
  PyHaloHandle(py::object grid, HaloHandle handle) : grid_(std::move(grid)), handle_(std::move(handle)) {
    grid_.cast<PyGrid&>().pending_++;
  }
  ~PyHaloHandle() {
    if (!handle_.pending()) return;
    try {
      wait();  // as the C++ handle does: never leave a collective half done
    } catch (...) {
    }
  }
  void wait() {
    if (!handle_.pending()) return;
    {
      py::gil_scoped_release unlocked;
      handle_.wait();
    }
    grid_.cast<PyGrid&>().pending_--;
  }
  bool pending() const noexcept { return handle_.pending(); }

 private:
  py::object grid_;
  HaloHandle handle_;
};

void bind_grid(py::module_& m) {
  py::class_<PyHaloHandle>(m, "HaloHandle", "A halo update under way: wait() fills the ghost cells.")
      .def("wait", &PyHaloHandle::wait, "Finish the update (the GIL is released while it waits).")
      .def_property_readonly("pending", &PyHaloHandle::pending)
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyHaloHandle& h, const py::args&) { h.wait(); });

  py::class_<PyGrid>(m, "Grid", R"(A distributed 1-, 2- or 3-d array in blocks over the ranks, with ghost cells.

Grid(world, shape, halo=1, dtype=numpy.float64, periodic=False, stencil="faces", placement="automatic")
  halo      ghost cells on each side: an int or one per dimension
  periodic  a bool or one per dimension: the halo wraps around
  stencil   "faces" (5/7-point: faces only) or "full" (9/27-point: edges and corners too)
  placement "automatic", "rank_order" or "hierarchical" (which rank computes which block)
Collective. .local is the local block with its ghost cells, .interior the owned cells: numpy
views of the grid's memory (writes go to the grid).)")
      .def(py::init([](const py::object& world, const py::object& shape, const py::object& halo,
                       const py::object& dtype, const py::object& periodic, const std::string& stencil,
                       const std::string& placement) {
             return new PyGrid(world, request_of(shape, halo, dtype, periodic, stencil, placement));
           }),
           py::arg("world"), py::arg("shape"), py::arg("halo") = 1, py::arg("dtype") = dtype_of(Element::float64),
           py::arg("periodic") = false, py::arg("stencil") = "faces", py::arg("placement") = "automatic")
      .def_property_readonly("local", [](const py::object& self) { return self.cast<PyGrid&>().view(self, true); },
                             "The local block with its ghost cells (a view: local[halo:-halo, ...] is interior).")
      .def_property_readonly("interior",
                             [](const py::object& self) { return self.cast<PyGrid&>().view(self, false); },
                             "The cells this rank owns (a view).")
      .def(
          "update_halo", [](PyGrid& g) { g.get().base().update_halo(); }, py::call_guard<py::gil_scoped_release>(),
          "Fill the ghost cells from the neighbours (collective; the GIL is released meanwhile).")
      .def(
          "update_halo_shared",
          [](PyGrid& g, std::size_t thread, std::size_t threads) { g.get().base().update_halo_shared(thread, threads); },
          py::arg("thread"), py::arg("threads"), py::call_guard<py::gil_scoped_release>(),
          "update_halo() by a team of threads (each calls it with its own thread in range(threads)); returns on "
          "every thread once every ghost cell is filled. The GIL is released meanwhile.")
      .def(
          "update_halo_async",
          [](const py::object& self) {
            HaloHandle handle = self.cast<PyGrid&>().get().base().update_halo_async();
            return std::make_unique<PyHaloHandle>(self, std::move(handle));
          },
          "Start filling the ghost cells; the handle's wait() finishes. Meanwhile do not write the owned "
          "cells within halo width of the block's faces nor read the ghost cells.")
      .def(
          "reverse_halo",
          [](PyGrid& g, const std::string& op) {
            const ReduceOp how = reduce_op_of(op, "Grid.reverse_halo", true);
            py::gil_scoped_release released;
            g.get().base().reverse_halo(how);
          },
          py::arg("op") = "sum",
          "The reverse of update_halo: every ghost cell it fills is combined into the cell it mirrors ('sum', "
          "'min', 'max' or 'replace'), the cell's own value first, then the ghosts' in a fixed order (collective; "
          "the GIL is released meanwhile). With 'sum', deposits into ghost cells reach their owners.")
      .def("sum", [](PyGrid& g) { return g.get().reduce(ReduceOp::sum); }, "Sum of all cells (collective).")
      .def("min", [](PyGrid& g) { return g.get().reduce(ReduceOp::min); }, "Minimum of all cells (collective).")
      .def("max", [](PyGrid& g) { return g.get().reduce(ReduceOp::max); }, "Maximum of all cells (collective).")
      .def(
          "barrier", [](PyGrid& g) { g.get().base().barrier(); }, py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("world", &PyGrid::world)
      .def_property_readonly("dtype", [](const PyGrid& g) { return dtype_of(g.element()); })
      .def_property_readonly("ndim", [](const PyGrid& g) { return g.get().dimensions(); })
      .def_property_readonly("shape", [](const PyGrid& g) { return g.values(&AnyGrid::extent); },
                             "Global extents.")
      .def_property_readonly("local_shape", [](const PyGrid& g) { return g.values(&AnyGrid::local_extent); },
                             "Owned cells per dimension (interior.shape).")
      .def_property_readonly("offset", [](const PyGrid& g) { return g.values(&AnyGrid::offset); },
                             "Global index of interior[0, ...].")
      .def_property_readonly("halo", [](const PyGrid& g) { return g.values(&AnyGrid::width); },
                             "Ghost cells on each side, per dimension.")
      .def_property_readonly("periodic",
                             [](const PyGrid& g) {
                               py::tuple t(g.get().dimensions());
                               for (int d = 0; d < g.get().dimensions(); ++d)
                                 t[static_cast<std::size_t>(d)] = g.get().periodic(d);
                               return t;
                             })
      .def_property_readonly("stencil",
                             [](const PyGrid& g) { return g.get().stencil() == Stencil::full ? "full" : "faces"; })
      .def_property_readonly("team",
                             [](const PyGrid& g) {
                               py::tuple t(g.get().dimensions());
                               for (int d = 0; d < g.get().dimensions(); ++d)
                                 t[static_cast<std::size_t>(d)] = g.get().team_extent(d);
                               return t;
                             },
                             "Blocks per dimension (the ranks as a Cartesian grid).")
      .def(
          "position",
          [](const PyGrid& g, py::object rank) {
            AnyGrid& a = g.get();
            int r = rank.is_none() ? g.world().cast<PyWorld&>().get().rank() : rank.cast<int>();
            const int size = g.world().cast<PyWorld&>().get().size();
            if (r < 0 || r >= size)
              throw Error(Errc::out_of_range,
                          "Grid.position: rank " + std::to_string(r) + " is not in 0.." + std::to_string(size - 1));
            py::tuple t(a.dimensions());
            for (int d = 0; d < a.dimensions(); ++d) t[static_cast<std::size_t>(d)] = a.position(d, r);
            return t;
          },
          py::arg("rank") = py::none(), "Team coordinates of the block `rank` (default: this rank) computes.")
      .def("describe", [](const PyGrid& g) { return g.get().base().describe(); })
      .def(
          "_bench_update_halo",
          [](PyGrid& g, int repeats) {
            GridBase& base = g.get().base();
            const double start = MPI_Wtime();
            for (int i = 0; i < repeats; ++i) base.update_halo();
            return MPI_Wtime() - start;
          },
          py::arg("repeats"), py::call_guard<py::gil_scoped_release>(),
          "Seconds for `repeats` update_halo() calls made in C++ (for the Python call overhead).")
      .def_property_readonly("closed", &PyGrid::closed)
      .def("close", &PyGrid::close,
           "Collective: frees the grid. Refused (ghostwire.Error, Errc.state) on every rank while any rank still "
           "has a numpy view of it (.local, .interior or an array made from them) or an update not waited for.")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyGrid& g, const py::args&) { g.close(); })
      .def("__repr__", [](const PyGrid& g) {
        if (g.closed()) return std::string("<ghostwire.Grid closed>");
        std::string shape;
        for (int d = 0; d < g.get().dimensions(); ++d) shape += (d ? " x " : "") + std::to_string(g.get().extent(d));
        return "<ghostwire.Grid " + shape + " " + element_name(g.element()) + ">";
      });
}

}  // namespace ghostwire::python
