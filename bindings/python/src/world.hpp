// SPDX-License-Identifier: BSD-3-Clause
// The Python World: a ghostwire::World that can be closed, and knows how many grids and plans
// still use it (it must outlive them).
#pragma once

#include <memory>

#include "common.hpp"
#include "ghostwire/world.hpp"

namespace ghostwire::python {

class PyWorld final : public Closable {
 public:
  // thread_level: None (MPI_THREAD_FUNNELED when the module initialises MPI) or "single", "funneled",
  // "serialized", "multiple": what MPI_Init_thread is asked for, if MPI is not running yet.
  PyWorld(const py::object& comm, const py::object& thread_level);
  ~PyWorld() override;
  void close() override;

  // Throws Error(state) once closed.
  World& get() const;
  bool closed() const noexcept { return !world_; }
  // Grids and plans register while they are open.
  void adopt() noexcept { ++users_; }
  void release() noexcept { --users_; }

 private:
  std::unique_ptr<World> world_;
  int users_ = 0;
};

// A child object's hold on its world: the Python object (kept alive) and the registration.
class WorldUse {
 public:
  explicit WorldUse(const py::object& world);
  ~WorldUse() { drop(); }
  WorldUse(const WorldUse&) = delete;
  WorldUse& operator=(const WorldUse&) = delete;
  void drop() noexcept;
  PyWorld& py() const { return *owner_; }
  World& get() const { return owner_->get(); }
  const py::object& object() const noexcept { return object_; }

 private:
  py::object object_;
  PyWorld* owner_ = nullptr;
  bool held_ = false;
};

}  // namespace ghostwire::python
