// SPDX-License-Identifier: BSD-3-Clause
// cfdproxy::UsageError is the apps' one UsageError (apps/common/usage_error.hpp, which says how the
// apps report it), named in gw-cfdproxy's namespace: its code says UsageError, and the fuzzers of
// its parsers (fuzz/CMakeLists.txt) find this header on the app's include path and catch
// cfdproxy::UsageError.
#pragma once

#include "../common/usage_error.hpp"

namespace cfdproxy {

using ghostwire_programs::UsageError;

}  // namespace cfdproxy
