// SPDX-License-Identifier: BSD-3-Clause
// ghostwire.World(comm=None): any mpi4py communicator, or MPI_COMM_WORLD.
//
// The MPI_Comm of an mpi4py communicator is taken from MPI._handleof(comm), an integer: a pointer
// in Open MPI, an int in MPICH. Both must come from the same MPI library, which is checked
// (Debian's mpi4py is built on Open MPI; with an MPICH build of ghostwire pass no comm).
#include <mpi.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "common.hpp"
#include "world.hpp"

namespace ghostwire::python {

namespace {

std::string library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(text, &length);
  return std::string(text, static_cast<std::size_t>(length));
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

void finalize_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

// Without mpi4py the module initialises MPI itself, once, and finalises it when Python exits,
// after every World is closed (a World that initialised MPI would finalise it when destroyed, and
// a second World could not start it again).
void initialise_mpi(int level) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) return;
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, level, &provided) != MPI_SUCCESS)
    throw Error(Errc::mpi, "World: MPI_Init_thread failed");
  Py_AtExit(finalize_at_exit);
}

const char* const level_names[] = {"single", "funneled", "serialized", "multiple"};

// The MPI level a thread_level argument names (None: funneled).
int mpi_level_of(const py::object& level) {
  const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE};
  if (level.is_none()) return MPI_THREAD_FUNNELED;
  const std::string name = py::str(level);
  for (int i = 0; i < 4; ++i)
    if (name == level_names[i]) return levels[i];
  invalid("World: thread_level '" + name + "': expected 'single', 'funneled', 'serialized' or 'multiple'");
}

// A pointer in Open MPI, an int in MPICH (a template, so that only the right cast is compiled).
template <class Handle>
Handle handle_to(std::uintptr_t value) {
  if constexpr (std::is_pointer_v<Handle>)
    return reinterpret_cast<Handle>(value);
  else
    return static_cast<Handle>(value);
}

MPI_Comm comm_of(const py::object& comm, int level) {
  if (comm.is_none()) {
    initialise_mpi(level);
    return MPI_COMM_WORLD;
  }
  py::module_ mpi = py::module_::import("mpi4py.MPI");
  if (!py::isinstance(comm, mpi.attr("Comm")))
    invalid("World: comm must be an mpi4py communicator (mpi4py.MPI.Comm) or None, got " +
            std::string(py::str(py::type::of(comm))));
  const std::string theirs = mpi.attr("Get_library_version")().cast<std::string>();
  const std::string ours = library_version();
  if (theirs != ours)
    throw Error(Errc::unsupported, "World: mpi4py runs on '" + first_line(theirs) + "' but ghostwire was built with '" +
                                       first_line(ours) + "'; pass no comm (MPI_COMM_WORLD) or build ghostwire "
                                       "with the MPI of mpi4py");
  if (comm.equal(mpi.attr("COMM_NULL"))) invalid("World: comm is MPI.COMM_NULL");
  const auto handle = mpi.attr("_handleof")(comm).cast<std::uintptr_t>();
  return handle_to<MPI_Comm>(handle);
}

}  // namespace

PyWorld::PyWorld(const py::object& comm, const py::object& thread_level)
    : world_(std::make_unique<World>(comm_of(comm, mpi_level_of(thread_level)))) {}

PyWorld::~PyWorld() {
  try {
    close();
  } catch (...) {  // still in use at exit: the grids are closed first by close_all
  }
}

void PyWorld::close() {
  if (!world_) return;
  if (users_ > 0)
    throw Error(Errc::state, "World.close: " + std::to_string(users_) +
                                 " grid(s) or plan(s) still use this world; close them first");
  world_.reset();
}

World& PyWorld::get() const {
  if (!world_) throw Error(Errc::state, "World: used after close()");
  return *world_;
}

WorldUse::WorldUse(const py::object& world) : object_(world) {
  if (!py::isinstance<PyWorld>(world))
    invalid("expected a ghostwire.World, got " + std::string(py::str(py::type::of(world))));
  owner_ = world.cast<PyWorld*>();
  owner_->get();  // not closed
  owner_->adopt();
  held_ = true;
}

void WorldUse::drop() noexcept {
  if (held_) owner_->release();
  held_ = false;
}

void bind_world(py::module_& m) {
  py::class_<PyWorld>(m, "World", R"(The processes of an MPI communicator, grouped into nodes.

World(comm=None, thread_level=None): comm is an mpi4py communicator (duplicated: ghostwire's messages
never mix with yours) or None for MPI_COMM_WORLD. thread_level ('single', 'funneled', 'serialized',
'multiple'; None: 'funneled') is what MPI is asked for if ghostwire initialises it; the level MPI
provides is World.thread_level. Collective. Usable as a context manager (close() at the end).)")
      .def(py::init<const py::object&, const py::object&>(), py::arg("comm") = py::none(),
           py::arg("thread_level") = py::none())
      .def_property_readonly(
          "thread_level",
          [](const PyWorld& w) { return std::string(level_names[static_cast<int>(w.get().thread_level())]); },
          "The thread level MPI provides: 'single', 'funneled', 'serialized' or 'multiple'.")
      .def_property_readonly("rank", [](const PyWorld& w) { return w.get().rank(); })
      .def_property_readonly("size", [](const PyWorld& w) { return w.get().size(); })
      .def_property_readonly("node", [](const PyWorld& w) { return w.get().node(); })
      .def_property_readonly("node_count", [](const PyWorld& w) { return w.get().node_count(); })
      .def_property_readonly("node_rank", [](const PyWorld& w) { return w.get().node_rank(); })
      .def_property_readonly("node_size", [](const PyWorld& w) { return w.get().node_size(); })
      .def_property_readonly("node_ranks", [](const PyWorld& w) { return w.get().node_ranks(); })
      .def("shares_memory_with", [](const PyWorld& w, int rank) { return w.get().shares_memory_with(rank); },
           py::arg("rank"))
      .def("where", [](const PyWorld& w) { return w.get().where(); })
      .def(
          "barrier", [](const PyWorld& w) { w.get().barrier(); }, py::call_guard<py::gil_scoped_release>(),
          "Collective barrier (the GIL is released while it waits).")
      .def_property_readonly("closed", &PyWorld::closed)
      .def("close", &PyWorld::close, "Collective: destroys the world (its grids and plans must be closed).")
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](PyWorld& w, const py::args&) { w.close(); })
      .def("__repr__", [](const PyWorld& w) {
        if (w.closed()) return std::string("<ghostwire.World closed>");
        return "<ghostwire.World " + w.get().where() + " of " + std::to_string(w.get().size()) + " ranks>";
      });
}

}  // namespace ghostwire::python
