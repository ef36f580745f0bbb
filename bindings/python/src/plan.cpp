// Index-list (unstructured) exchanges over numpy arrays (docs/plans.md):
//
//   ghostwire.UnstructuredPlan(world, owned, ghost_owner, ghost_index, dtype)  like PetscSF: each
//       ghost is element ghost_index[i] of rank ghost_owner[i]'s owned values; .owned and .ghosts
//       are numpy views of one Segment (node peers write the ghosts directly)
//   ghostwire.Plan(world, neighbours, channels)  the general plan: add_send/add_receive index
//       lists over your own arrays (C-contiguous; kept alive by the plan), commit(), exchange()
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common.hpp"
#include "ghostwire/plan.hpp"
#include "world.hpp"

namespace ghostwire::python {

namespace {

std::vector<std::size_t> index_list(const py::handle& indices, std::size_t limit, const char* what) {
  std::vector<std::size_t> out;
  for (const py::handle& item : py::iter(indices)) {
    const long long i = item.cast<long long>();
    if (i < 0 || static_cast<std::size_t>(i) >= limit)
      throw Error(Errc::out_of_range, std::string(what) + ": index " + std::to_string(i) + " is outside 0.." +
                                          std::to_string(static_cast<long long>(limit) - 1));
    out.push_back(static_cast<std::size_t>(i));
  }
  return out;
}

// Runs one of the plan's waits with the GIL released.
template <class F>
void unlocked(F&& f) {
  py::gil_scoped_release released;
  f();
}

}  // namespace

class PyUnstructuredPlan final : public Closable {
 public:
  PyUnstructuredPlan(const py::object& world, std::size_t owned, const py::object& ghost_owner,
                     const py::object& ghost_index, const py::object& dtype)
      : world_(world), element_(element_of(dtype, "UnstructuredPlan: dtype")), owned_(owned) {
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
        make_unstructured_plan(w, *segment_, 0, owned_, segment_->data() + owned_ * size, map, size));
  }
  ~PyUnstructuredPlan() override {
    try {
      close();
    } catch (...) {
    }
  }
  void close() override {
    if (!plan_) return;
    plan_.reset();
    segment_.reset();
    world_.drop();
  }
  Plan& get() const {
    if (!plan_) throw Error(Errc::state, "UnstructuredPlan: used after close()");
    return *plan_;
  }
  py::array view(const py::object& self, bool ghosts) const {
    get();
    const std::size_t size = element_size(element_);
    std::byte* first = segment_->data() + (ghosts ? owned_ * size : 0);
    const auto count = static_cast<py::ssize_t>(ghosts ? ghosts_ : owned_);
    return py::array(dtype_of(element_), {count}, {static_cast<py::ssize_t>(size)}, first, self);
  }
  bool closed() const noexcept { return !plan_; }

 private:
  WorldUse world_;
  Element element_;
  std::size_t owned_, ghosts_ = 0;
  std::unique_ptr<Segment> segment_;
  std::unique_ptr<Plan> plan_;
};

class PyPlan final : public Closable {
 public:
  PyPlan(const py::object& world, const std::vector<int>& neighbours, std::size_t channels)
      : world_(world), plan_(std::make_unique<Plan>(world_.get(), std::span<const int>(neighbours), channels)) {}
  ~PyPlan() override {
    try {
      close();
    } catch (...) {
    }
  }
  void close() override {
    if (!plan_) return;
    plan_.reset();
    arrays_.clear();
    world_.drop();
  }
  Plan& get() const {
    if (!plan_) throw Error(Errc::state, "Plan: used after close()");
    return *plan_;
  }
  bool closed() const noexcept { return !plan_; }

  void add(bool send, std::size_t channel, int neighbour, const py::object& array, const py::object& indices) {
    Plan& plan = get();
    const char* what = send ? "Plan.add_send: array" : "Plan.add_receive: array";
    if (plan.committed()) throw Error(Errc::state, std::string(what) + ": the plan is committed already");
    if (!py::isinstance<py::array>(array))
      invalid(std::string(what) + ": expected a numpy array, got " + std::string(py::str(py::type::of(array))));
    const Element element = element_of(py::reinterpret_borrow<py::array>(array).dtype(), what);
    py::array checked = require_array(array, element, what);
    std::vector<std::size_t> list = index_list(indices, static_cast<std::size_t>(checked.size()),
                                               send ? "Plan.add_send: indices" : "Plan.add_receive: indices");
    Region region = region_of(checked, element);
    if (send)
      plan.add_send(channel, neighbour, region, Layout::indices(std::move(list)));
    else
      plan.add_receive(channel, neighbour, region, Layout::indices(std::move(list)));
  }

 private:
  // One region per array (by address), the array kept alive as long as the plan.
  Region region_of(const py::array& array, Element element) {
    auto* base = const_cast<void*>(array.data());
    auto found = regions_.find(base);
    if (found != regions_.end()) return found->second;
    const std::size_t size = element_size(element);
    Region region = plan_->add_memory(base, static_cast<std::size_t>(array.size()) * size + (array.size() ? 0 : size),
                                      size);
    regions_.emplace(base, region);
    arrays_.push_back(array);
    return region;
  }

  WorldUse world_;
  std::unique_ptr<Plan> plan_;
  std::unordered_map<void*, Region> regions_;
  std::vector<py::array> arrays_;
};

void bind_plan(py::module_& m) {
  py::class_<PyUnstructuredPlan>(m, "UnstructuredPlan", R"(An exchange of scattered values (unstructured meshes).

UnstructuredPlan(world, owned, ghost_owner, ghost_index, dtype=numpy.float64): this rank owns
`owned` values (.owned, a numpy view) and receives len(ghost_owner) ghosts (.ghosts): ghost i is
element ghost_index[i] of rank ghost_owner[i]'s owned values. Collective. exchange() fills .ghosts.)")
      .def(py::init<const py::object&, std::size_t, const py::object&, const py::object&, const py::object&>(),
           py::arg("world"), py::arg("owned"), py::arg("ghost_owner"), py::arg("ghost_index"),
           py::arg("dtype") = dtype_of(Element::float64))
      .def_property_readonly("owned",
                             [](const py::object& self) { return self.cast<PyUnstructuredPlan&>().view(self, false); })
      .def_property_readonly("ghosts",
                             [](const py::object& self) { return self.cast<PyUnstructuredPlan&>().view(self, true); })
      .def("exchange", [](PyUnstructuredPlan& p) { unlocked([&] { p.get().exchange(); }); },
           "Fill the ghosts (collective; the GIL is released meanwhile).")
      .def("start", [](PyUnstructuredPlan& p) { unlocked([&] { p.get().start(); }); })
      .def("finish", [](PyUnstructuredPlan& p) { unlocked([&] { p.get().finish(); }); })
      .def("describe", [](const PyUnstructuredPlan& p) { return p.get().describe(); })
      .def_property_readonly("closed", &PyUnstructuredPlan::closed)
      .def("close", &PyUnstructuredPlan::close)
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyUnstructuredPlan& p, const py::args&) { p.close(); });

  py::class_<PyPlan>(m, "Plan", R"(A halo exchange built once and run many times, over index lists of numpy arrays.

Plan(world, neighbours, channels=1); add_send(channel, neighbour, array, indices) and
add_receive(...) for every message (both sides must agree on counts and dtypes); commit()
(collective); then exchange() or start()/finish(), or send/wait_recv/wait_send per slot. Arrays
must be C-contiguous; the plan keeps them alive and reads/writes them in place.)")
      .def(py::init<const py::object&, const std::vector<int>&, std::size_t>(), py::arg("world"),
           py::arg("neighbours"), py::arg("channels") = 1)
      .def(
          "add_send",
          [](PyPlan& p, std::size_t c, int n, const py::object& a, const py::object& i) {
            p.add(true, c, n, a, i);
            return &p;
          },
          py::arg("channel"), py::arg("neighbour"), py::arg("array"), py::arg("indices"),
          py::return_value_policy::reference)
      .def(
          "add_receive",
          [](PyPlan& p, std::size_t c, int n, const py::object& a, const py::object& i) {
            p.add(false, c, n, a, i);
            return &p;
          },
          py::arg("channel"), py::arg("neighbour"), py::arg("array"), py::arg("indices"),
          py::return_value_policy::reference)
      .def("commit", [](PyPlan& p) { unlocked([&] { p.get().commit(); }); })
      .def_property_readonly("committed", [](const PyPlan& p) { return p.get().committed(); })
      .def("exchange", [](PyPlan& p) { unlocked([&] { p.get().exchange(); }); })
      .def("start", [](PyPlan& p) { unlocked([&] { p.get().start(); }); })
      .def("finish", [](PyPlan& p) { unlocked([&] { p.get().finish(); }); })
      .def("send", [](PyPlan& p, std::size_t c, int n) { unlocked([&] { p.get().send(c, n); }); })
      .def("wait_recv", [](PyPlan& p, std::size_t c, int n) { unlocked([&] { p.get().wait_recv(c, n); }); })
      .def("wait_send", [](PyPlan& p, std::size_t c, int n) { unlocked([&] { p.get().wait_send(c, n); }); })
      .def("test_recv", [](PyPlan& p, std::size_t c, int n) { return p.get().test_recv(c, n); })
      .def("test_send", [](PyPlan& p, std::size_t c, int n) { return p.get().test_send(c, n); })
      .def_property_readonly("neighbours", [](const PyPlan& p) { return p.get().neighbours(); })
      .def("describe", [](const PyPlan& p) { return p.get().describe(); })
      .def_property_readonly("closed", &PyPlan::closed)
      .def("close", &PyPlan::close)
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyPlan& p, const py::args&) { p.close(); });
}

}  // namespace ghostwire::python
