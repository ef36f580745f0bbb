// SPDX-License-Identifier: BSD-3-Clause
// cloverleaf::UsageError is the apps' one UsageError (apps/common/usage_error.hpp, which says how
// the apps report it), named in gw-cloverleaf's namespace: its code says UsageError, and the
// fuzzers of its parsers (fuzz/CMakeLists.txt) find this header on the app's include path and catch
// cloverleaf::UsageError.
#pragma once

#include "../common/usage_error.hpp"

namespace cloverleaf {

using ghostwire_programs::UsageError;

}  // namespace cloverleaf
