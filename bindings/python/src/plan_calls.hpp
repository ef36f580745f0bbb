// SPDX-License-Identifier: BSD-3-Clause
// What the two Python plans share: running a plan's waits without the GIL.
#pragma once

#include "common.hpp"

namespace ghostwire::python {

// Runs one of the plan's waits with the GIL released.
template <class F>
inline void unlocked(F&& f) {
  py::gil_scoped_release released;
  f();
}

}  // namespace ghostwire::python
