// SPDX-License-Identifier: BSD-3-Clause
// ghostwire.Plan(world, neighbours, channels): the general plan over numpy arrays. add_send and
// add_receive take your own arrays (C-contiguous, kept alive by the plan) with a box of them as a
// numpy index (numpy.s_[1:-1, 0]) or a flat index list, then commit() and exchange() (docs/plans.md,
// docs/python.md).
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common.hpp"
#include "ghostwire/plan.hpp"
#include "plan_box.hpp"
#include "plan_calls.hpp"
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

// partitions: a count, or a list of element counts.
void partition(Plan& plan, bool send, std::size_t channel, int neighbour, const py::object& parts) {
  if (py::isinstance<py::int_>(parts)) {
    const long long count = parts.cast<long long>();
    if (count < 0) invalid("Plan.partition: a negative partition count (" + std::to_string(count) + ")");
    send ? plan.partition_send(channel, neighbour, static_cast<std::size_t>(count))
         : plan.partition_receive(channel, neighbour, static_cast<std::size_t>(count));
    return;
  }
  std::vector<std::size_t> elements;
  for (const py::handle& item : py::iter(parts)) {
    const long long count = item.cast<long long>();
    if (count < 0) invalid("Plan.partition: a negative element count (" + std::to_string(count) + ")");
    elements.push_back(static_cast<std::size_t>(count));
  }
  send ? plan.partition_send(channel, neighbour, elements) : plan.partition_receive(channel, neighbour, elements);
}

}  // namespace

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
    const char* index_what = send ? "Plan.add_send: indices" : "Plan.add_receive: indices";
    Layout layout = is_box_index(indices)
                        ? box_of(indices, checked, index_what)
                        : Layout::indices(index_list(indices, static_cast<std::size_t>(checked.size()), index_what));
    Region region = region_of(checked, element);
    if (send)
      plan.add_send(channel, neighbour, region, layout);
    else
      plan.add_receive(channel, neighbour, region, layout);
  }

  // The plan's region of `from` is `to` from now on: same dtype and size, C-contiguous (Plan::rebind).
  void rebind(const py::object& from, const py::object& to) {
    Plan& plan = get();
    for (const py::object* array : {&from, &to})
      if (!py::isinstance<py::array>(*array))
        invalid("Plan.rebind: expected numpy arrays, got " + std::string(py::str(py::type::of(*array))));
    const py::array old_array = py::reinterpret_borrow<py::array>(from);
    auto found = regions_.find(const_cast<void*>(old_array.data()));
    if (found == regions_.end()) invalid("Plan.rebind: the first array is not one the plan was given");
    const Element element = element_of(old_array.dtype(), "Plan.rebind: the first array");
    py::array checked = require_array(to, element, "Plan.rebind: the second array");
    if (checked.size() != old_array.size())
      invalid("Plan.rebind: the second array has " + std::to_string(checked.size()) + " elements, the first " +
              std::to_string(old_array.size()));
    void* base = const_cast<void*>(checked.data());
    if (regions_.count(base) && base != found->first) invalid("Plan.rebind: the second array is already one of the plan's");
    const Region region = found->second;
    unlocked([&] { plan.rebind(region, base); });
    regions_.erase(found);
    regions_.emplace(base, region);
    arrays_.push_back(checked);  // kept alive as long as the plan, like every array it was given
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
  bind_unstructured_plan(m);
  py::class_<PyPlan>(m, "Plan", R"(A halo exchange built once and run many times, over your own numpy arrays.

Plan(world, neighbours, channels=1); add_send(channel, neighbour, array, indices) and
add_receive(...) for every message (both sides must agree on counts and dtypes); commit()
(collective); then exchange() or start()/finish(), or send/wait_recv/wait_send per slot. indices is
a box of the array as a numpy index of integers and slices (numpy.s_[1:-1, 0]: a column; at most 3
dimensions of more than one element) or a flat list of element numbers. Arrays must be
C-contiguous; the plan keeps them alive and reads and writes them in place, at the address they
have now.)")
      .def(py::init<const py::object&, const std::vector<int>&, std::size_t>(), py::arg("world"),
           py::arg("neighbours"), py::arg("channels") = 1)
      .def(
          "add_send",
          [](PyPlan& p, std::size_t c, int n, const py::object& a, const py::object& i) {
            p.add(true, c, n, a, i);
            return &p;
          },
          py::arg("channel"), py::arg("neighbour"), py::arg("array"), py::arg("indices"),
          py::return_value_policy::reference,
          "Appends array[indices] (a numpy index of integers and slices: a box, in the order numpy lists it) or the "
          "elements at a flat index list to the message to neighbour on channel.")
      .def(
          "add_receive",
          [](PyPlan& p, std::size_t c, int n, const py::object& a, const py::object& i) {
            p.add(false, c, n, a, i);
            return &p;
          },
          py::arg("channel"), py::arg("neighbour"), py::arg("array"), py::arg("indices"),
          py::return_value_policy::reference,
          "Appends array[indices] (a box) or the elements at a flat index list to the message from neighbour on "
          "channel: the ghost cells it fills.")
      .def(
          "partition_send",
          [](PyPlan& p, std::size_t c, int n, const py::object& parts) {
            partition(p.get(), true, c, n, parts);
            return &p;
          },
          py::arg("channel"), py::arg("neighbour"), py::arg("partitions"), py::return_value_policy::reference,
          "Before commit: the message to neighbour cut into partitions: a count (as equal as can be) or a list of "
          "element counts in message order. The receiver cuts its receive alike (partition_receive).")
      .def(
          "partition_receive",
          [](PyPlan& p, std::size_t c, int n, const py::object& parts) {
            partition(p.get(), false, c, n, parts);
            return &p;
          },
          py::arg("channel"), py::arg("neighbour"), py::arg("partitions"), py::return_value_policy::reference)
      .def("send_partitions", [](const PyPlan& p, std::size_t c, int n) { return p.get().send_partitions(c, n); })
      .def("receive_partitions", [](const PyPlan& p, std::size_t c, int n) { return p.get().receive_partitions(c, n); })
      .def(
          "pready", [](PyPlan& p, std::size_t c, int n, std::size_t i) { unlocked([&] { p.get().pready(c, n, i); }); },
          py::arg("channel"), py::arg("neighbour"), py::arg("partition"),
          "Partition i of the message to neighbour is final: send it (any thread, one per partition).")
      .def(
          "parrived", [](PyPlan& p, std::size_t c, int n, std::size_t i) { return p.get().parrived(c, n, i); },
          py::arg("channel"), py::arg("neighbour"), py::arg("partition"),
          "Whether partition i of the message from neighbour has arrived (then it is in the receive array).")
      .def(
          "exchange_share",
          [](PyPlan& p, std::size_t thread, std::size_t threads) {
            unlocked([&] { p.get().exchange_share(thread, threads); });
          },
          py::arg("thread"), py::arg("threads"),
          "Thread `thread` of a team of `threads` does its share of one exchange (the team synchronises around it).")
      .def(
          "aggregate",
          [](PyPlan& p, const std::string& mode) {
            p.get().aggregate(aggregation_of(mode, "Plan.aggregate"));
            return &p;
          },
          py::arg("mode"), py::return_value_policy::reference,
          "Before commit, the same on every rank: messages between nodes combined into one per pair of nodes "
          "('node'), each its own ('off'), or by the automatic rule ('auto'); without the call, GHOSTWIRE_AGGREGATE "
          "decides.")
      .def("rebind", &PyPlan::rebind, py::arg("old"), py::arg("new"),
           "The plan's messages use array `new` where they used `old` (same dtype and size, C-contiguous): "
           "between exchanges, on this rank only; for arrays swapped every step.")
      .def("commit", [](PyPlan& p) { unlocked([&] { p.get().commit(); }); })
      .def_property_readonly("committed", [](const PyPlan& p) { return p.get().committed(); })
      .def("exchange", [](PyPlan& p) { unlocked([&] { p.get().exchange(); }); })
      .def("enable_reverse", [](PyPlan& p) { unlocked([&] { p.get().enable_reverse(); }); },
           "Give the plan a reverse exchange: on every rank, before commit() or (collectively) after it.")
      .def(
          "reverse_exchange",
          [](PyPlan& p, const std::string& op, const py::object& dtype) {
            const Combine how{reduce_op_of(op, "Plan.reverse_exchange", true),
                              scalar_of(element_of(dtype, "Plan.reverse_exchange"))};
            unlocked([&] { p.get().reverse_exchange(how); });
          },
          py::arg("op") = "sum", py::arg("dtype") = dtype_of(Element::float64),
          "Every receive layout's values go back to their sender and are combined into the elements they came "
          "from ('sum', 'min', 'max' or 'replace', as values of dtype), in a fixed order.")
      .def("reverse_start", [](PyPlan& p) { unlocked([&] { p.get().reverse_start(); }); })
      .def(
          "reverse_finish",
          [](PyPlan& p, const std::string& op, const py::object& dtype) {
            const Combine how{reduce_op_of(op, "Plan.reverse_finish", true),
                              scalar_of(element_of(dtype, "Plan.reverse_finish"))};
            unlocked([&] { p.get().reverse_finish(how); });
          },
          py::arg("op") = "sum", py::arg("dtype") = dtype_of(Element::float64))
      .def("start", [](PyPlan& p) { unlocked([&] { p.get().start(); }); })
      .def("finish", [](PyPlan& p) { unlocked([&] { p.get().finish(); }); })
      .def("send", [](PyPlan& p, std::size_t c, int n) { unlocked([&] { p.get().send(c, n); }); })
      .def("wait_recv", [](PyPlan& p, std::size_t c, int n) { unlocked([&] { p.get().wait_recv(c, n); }); })
      .def(
          "wait_send",
          [](PyPlan& p, std::size_t c, int n, const py::object& partition) {
            if (partition.is_none())
              unlocked([&] { p.get().wait_send(c, n); });
            else
              unlocked([&, k = partition.cast<std::size_t>()] { p.get().wait_send(c, n, k); });
          },
          py::arg("channel"), py::arg("neighbour"), py::arg("partition") = py::none(),
          "Until the receiver has the last message (or the last of one partition): its data may change.")
      .def("test_recv", [](PyPlan& p, std::size_t c, int n) { return p.get().test_recv(c, n); })
      .def(
          "test_send",
          [](PyPlan& p, std::size_t c, int n, const py::object& partition) {
            return partition.is_none() ? p.get().test_send(c, n) : p.get().test_send(c, n, partition.cast<std::size_t>());
          },
          py::arg("channel"), py::arg("neighbour"), py::arg("partition") = py::none())
      .def_property_readonly("neighbours", [](const PyPlan& p) { return p.get().neighbours(); })
      .def("describe", [](const PyPlan& p) { return p.get().describe(); })
      .def_property_readonly("closed", &PyPlan::closed)
      .def("close", &PyPlan::close)
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyPlan& p, const py::args&) { p.close(); });
}

}  // namespace ghostwire::python
