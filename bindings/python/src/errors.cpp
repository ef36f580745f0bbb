// SPDX-License-Identifier: BSD-3-Clause
// ghostwire::Error -> ghostwire.Error (a RuntimeError) with .code, a ghostwire.Errc; TimeoutError
// -> ghostwire.TimeoutError, a subclass. The message is the library's, unchanged.
#include <pybind11/pybind11.h>

#include "common.hpp"

namespace ghostwire::python {

void invalid(const std::string& message) { throw Error(Errc::invalid_argument, message); }

void bind_errors(py::module_& m) {
  py::enum_<Errc>(m, "Errc", "Error codes, the same values as the C API's GW_ERR_*.")
      .value("ok", Errc::ok)
      .value("invalid_argument", Errc::invalid_argument)
      .value("out_of_range", Errc::out_of_range)
      .value("mismatch", Errc::mismatch)
      .value("timeout", Errc::timeout)
      .value("mpi", Errc::mpi)
      .value("state", Errc::state)
      .value("unsupported", Errc::unsupported)
      .value("internal", Errc::internal);

  // Kept alive by the module for the translator, which runs after module init returns.
  static py::handle error = PyErr_NewExceptionWithDoc(
      "ghostwire.Error", "A ghostwire call failed; .code is the ghostwire.Errc, str() the library's message.",
      PyExc_RuntimeError, nullptr);
  static py::handle timeout = PyErr_NewExceptionWithDoc(
      "ghostwire.TimeoutError", "A wait exceeded GHOSTWIRE_TIMEOUT (with GHOSTWIRE_ON_TIMEOUT=throw).",
      error.ptr(), nullptr);
  if (!error || !timeout) throw py::error_already_set();
  m.attr("Error") = error;
  m.attr("TimeoutError") = timeout;

  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const Error& e) {
      py::handle type = dynamic_cast<const TimeoutError*>(&e) ? timeout : error;
      py::object instance = py::reinterpret_borrow<py::object>(type)(py::str(e.what()));
      instance.attr("code") = py::cast(e.code());
      PyErr_SetObject(type.ptr(), instance.ptr());
    }
  });
}

}  // namespace ghostwire::python
