// SPDX-License-Identifier: BSD-3-Clause
// ghostwire.UnstructuredPlan(world, owned, ghost_owner, ghost_index, dtype), like PetscSF: each
// ghost is element ghost_index[i] of rank ghost_owner[i]'s owned values; .owned and .ghosts are
// numpy views of one Segment, so node peers write the ghosts directly (docs/plans.md). Invariant:
// no view outlives that Segment: close() refuses on every rank while a view is alive (views.hpp).
#include <memory>
#include <optional>
#include <string>

#include "common.hpp"
#include "views.hpp"
#include "ghostwire/plan.hpp"
#include "plan_calls.hpp"
#include "world.hpp"

namespace ghostwire::python {

class PyUnstructuredPlan final : public Closable {
 public:
  PyUnstructuredPlan(const py::object& world, std::size_t owned, const py::object& ghost_owner,
                     const py::object& ghost_index, const py::object& dtype, const py::object& aggregate)
      : world_(world), element_(element_of(dtype, "UnstructuredPlan: dtype")), owned_(owned) {
    std::optional<Aggregation> aggregation;
    if (!aggregate.is_none()) aggregation = aggregation_of(aggregate.cast<std::string>(), "UnstructuredPlan: aggregate");
    World& w = world_.get();
    GhostMap map;
    for (const py::handle& o : py::iter(ghost_owner)) {
      const int rank = o.cast<int>();
      if (rank < 0 || rank >= w.size())
        throw Error(Errc::out_of_range, "UnstructuredPlan: ghost_owner " + std::to_string(rank) +
                                            " is not a rank of the world (0.." + std::to_string(w.size() - 1) + ")");
      map.owner.push_back(rank);
    }
    for (const py::handle& i : py::iter(ghost_index)) {
      const long long index = i.cast<long long>();
      if (index < 0) throw Error(Errc::out_of_range, "UnstructuredPlan: ghost_index " + std::to_string(index) + " < 0");
      map.index.push_back(static_cast<std::size_t>(index));
    }
    if (map.owner.size() != map.index.size())
      invalid("UnstructuredPlan: ghost_owner has " + std::to_string(map.owner.size()) + " entries, ghost_index " +
              std::to_string(map.index.size()));
    ghosts_ = map.owner.size();
    const std::size_t size = element_size(element_);
    py::gil_scoped_release released;  // collective
    // Owned values first, then the ghosts, in one Segment: node peers can write ghosts in place.
    segment_ = std::make_unique<Segment>(w, (owned_ + ghosts_) * size + 1);
    plan_ = std::make_unique<Plan>(
        make_unstructured_plan(w, *segment_, 0, owned_, segment_->data() + owned_ * size, map, size, aggregation));
  }
  ~PyUnstructuredPlan() override {
    try {
      close();
    } catch (...) {
    }
  }
  void close() override {
    if (!plan_) return;
    const InUse all = in_use_on_all_ranks(world_.get(), {views_.alive, 0});
    if (all.views > 0)
      refuse_close_with_views("UnstructuredPlan.close", "plan", ".owned or .ghosts", views_.alive, all.views);
    release();
  }
  void close_at_exit() override { release(); }
  Plan& get() const {
    if (!plan_) throw Error(Errc::state, "UnstructuredPlan: used after close()");
    return *plan_;
  }
  // Its base (a ViewBase) keeps `self` alive and counts the view (views.hpp).
  py::array view(const py::object& self, bool ghosts) {
    get();
    const std::size_t size = element_size(element_);
    std::byte* first = segment_->data() + (ghosts ? owned_ * size : 0);
    const auto count = static_cast<py::ssize_t>(ghosts ? ghosts_ : owned_);
    return view_of(self, views_, dtype_of(element_), {count}, {static_cast<py::ssize_t>(size)}, first);
  }
  bool closed() const noexcept { return !plan_; }
  // Every call of the plan is collective here, so the first reverse may build it (collective too).
  void reverse(ReduceOp op) {
    Plan& plan = get();
    if (!plan.reverse_enabled()) plan.enable_reverse();
    plan.reverse_exchange(Combine{op, scalar_of(element_)});
  }

 private:
  void release() {
    if (!plan_) return;
    plan_.reset();
    segment_.reset();
    world_.drop();
  }
  ViewCount views_;
  WorldUse world_;
  Element element_;
  std::size_t owned_, ghosts_ = 0;
  std::unique_ptr<Segment> segment_;
  std::unique_ptr<Plan> plan_;
};

void bind_unstructured_plan(py::module_& m) {
  py::class_<PyUnstructuredPlan>(m, "UnstructuredPlan", R"(An exchange of scattered values (unstructured meshes).

UnstructuredPlan(world, owned, ghost_owner, ghost_index, dtype=numpy.float64, aggregate=None): this
rank owns `owned` values (.owned, a numpy view) and receives len(ghost_owner) ghosts (.ghosts):
ghost i is element ghost_index[i] of rank ghost_owner[i]'s owned values. Collective. exchange()
fills .ghosts. aggregate: 'auto', 'node' or 'off' as Plan.aggregate, the same on every rank;
None: GHOSTWIRE_AGGREGATE decides.)")
      .def(py::init<const py::object&, std::size_t, const py::object&, const py::object&, const py::object&,
                    const py::object&>(),
           py::arg("world"), py::arg("owned"), py::arg("ghost_owner"), py::arg("ghost_index"),
           py::arg("dtype") = dtype_of(Element::float64), py::arg("aggregate") = py::none())
      .def_property_readonly("owned",
                             [](const py::object& self) { return self.cast<PyUnstructuredPlan&>().view(self, false); })
      .def_property_readonly("ghosts",
                             [](const py::object& self) { return self.cast<PyUnstructuredPlan&>().view(self, true); })
      .def("exchange", [](PyUnstructuredPlan& p) { unlocked([&] { p.get().exchange(); }); },
           "Fill the ghosts (collective; the GIL is released meanwhile).")
      .def(
          "reverse_exchange",
          [](PyUnstructuredPlan& p, const std::string& op) {
            const ReduceOp how = reduce_op_of(op, "UnstructuredPlan.reverse_exchange", true);
            unlocked([&] { p.reverse(how); });
          },
          py::arg("op") = "sum",
          "The reverse of exchange(): every ghost goes back to its owner and is combined into the owned value "
          "('sum', 'min', 'max' or 'replace'), the owned value first, then the ghosts by rank and position: the "
          "same bits run to run. Collective (the first call builds the reverse plan).")
      .def("start", [](PyUnstructuredPlan& p) { unlocked([&] { p.get().start(); }); })
      .def("finish", [](PyUnstructuredPlan& p) { unlocked([&] { p.get().finish(); }); })
      .def("describe", [](const PyUnstructuredPlan& p) { return p.get().describe(); })
      .def_property_readonly("closed", &PyUnstructuredPlan::closed)
      .def("close", &PyUnstructuredPlan::close)
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyUnstructuredPlan& p, const py::args&) { p.close(); });

}

}  // namespace ghostwire::python
