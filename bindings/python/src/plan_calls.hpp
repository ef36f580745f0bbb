// SPDX-License-Identifier: BSD-3-Clause
// What the two Python plans share: running a plan's waits without the GIL, the aggregation modes.
#pragma once

#include <optional>
#include <string>

#include "common.hpp"
#include "ghostwire/settings.hpp"

namespace ghostwire::python {

// Runs one of the plan's waits with the GIL released.
template <class F>
inline void unlocked(F&& f) {
  py::gil_scoped_release released;
  f();
}

// 'auto', 'node' or 'off' (Plan.aggregate, UnstructuredPlan's aggregate=); `context` names the call.
inline Aggregation aggregation_of(const std::string& mode, const std::string& context) {
  const std::optional<Aggregation> found = aggregation_from_name(mode);
  if (!found) invalid(context + ": mode '" + mode + "' is not one of 'auto', 'node', 'off'");
  return *found;
}

}  // namespace ghostwire::python
