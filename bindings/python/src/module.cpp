// SPDX-License-Identifier: BSD-3-Clause
// The _ghostwire extension module (imported by the ghostwire package): one bind_* per file, and
// the registry of objects to close at exit.
#include <algorithm>
#include <vector>

#include "common.hpp"

namespace ghostwire::python {

namespace {
// Open objects in creation order. Python objects are destroyed in an order that need not be the
// same on every rank, so at exit they are closed here instead, newest first.
std::vector<Closable*>& open_objects() {
  static std::vector<Closable*> objects;
  return objects;
}
}  // namespace

Closable::Closable() { open_objects().push_back(this); }

Closable::~Closable() {
  auto& objects = open_objects();
  objects.erase(std::remove(objects.begin(), objects.end(), this), objects.end());
}

void close_all() {
  // Copied: close() does not unregister, destruction does; a grid's close releases its world.
  std::vector<Closable*> objects = open_objects();
  for (auto it = objects.rbegin(); it != objects.rend(); ++it) (*it)->close_at_exit();
}

}  // namespace ghostwire::python

PYBIND11_MODULE(_ghostwire, m) {
  namespace gp = ghostwire::python;
  m.doc() = "ghostwire's Python interface (see the ghostwire package and docs/python.md)";
  gp::bind_errors(m);
  gp::bind_views(m);
  gp::bind_world(m);
  gp::bind_grid(m);
  gp::bind_plan(m);
  gp::bind_collective(m);
  m.def("_close_all", &gp::close_all,
        "Close every open grid, plan and world, newest first (registered with atexit by the package).");
}
