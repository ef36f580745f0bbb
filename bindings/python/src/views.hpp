// SPDX-License-Identifier: BSD-3-Clause
// Numpy views of memory that close() frees on every rank at once (a Grid's block, an
// UnstructuredPlan's owned values and ghosts). Invariant: no
// view outlives that memory. Each view's base is a ViewBase, which keeps the owning Python object
// alive and counts itself in the owner's ViewCount; numpy gives every array made from a view
// (slices, reshapes, transposes) the same base, so those count too. close() asks all ranks, and
// refuses on every rank alike while any view is alive (docs/python.md, "How it works").
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "common.hpp"

namespace ghostwire {
class World;
}

namespace ghostwire::python {

// How many views of one owner are alive; the owner holds it, its views' bases point at it.
struct ViewCount {
  std::int64_t alive = 0;
};

class ViewBase {
 public:
  ViewBase(py::object owner, ViewCount& count) noexcept : owner_(std::move(owner)), count_(&count) {
    ++count_->alive;
  }
  ~ViewBase() { --count_->alive; }  // runs before owner_ is released: *count_ lives in the owner
  ViewBase(const ViewBase&) = delete;
  ViewBase& operator=(const ViewBase&) = delete;
  const py::object& owner() const noexcept { return owner_; }

 private:
  py::object owner_;
  ViewCount* count_;
};

// A writeable numpy array over `first` whose base is a new ViewBase of `owner`.
py::array view_of(const py::object& owner, ViewCount& count, const py::dtype& type, std::vector<py::ssize_t> shape,
                  std::vector<py::ssize_t> strides, void* first);

// What keeps an owner from closing, on this rank or summed over all ranks.
struct InUse {
  std::int64_t views = 0;
  std::int64_t pending = 0;  // updates started and not waited for (Grid)
};

// `mine` summed over the world's ranks, so that close() refuses or proceeds on every rank alike: the
// memory goes collectively, and a rank that kept it would leave the others waiting in close().
// Collective; the GIL stays held, as it is while close() frees the memory (no thread of this rank
// can make a view in between).
InUse in_use_on_all_ranks(World& world, InUse mine);

// Error(state) from `call` ("Grid.close"): `mine` views of this `owner` ("grid") alive here, `all` on
// all ranks; `sources` names where the views come from (".local or .interior").
[[noreturn]] void refuse_close_with_views(const char* call, const char* owner, const char* sources, std::int64_t mine,
                                          std::int64_t all);

}  // namespace ghostwire::python
