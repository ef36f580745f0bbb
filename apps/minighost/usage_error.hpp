// SPDX-License-Identifier: BSD-3-Clause
// minighost::UsageError is the apps' one UsageError (apps/common/usage_error.hpp, which says how
// the apps report it), named in gw-minighost's namespace: its code says UsageError, and the fuzzers
// of its parsers (fuzz/CMakeLists.txt) find this header on the app's include path and catch
// minighost::UsageError.
#pragma once

#include "../common/usage_error.hpp"

namespace minighost {

using ghostwire_programs::UsageError;

}  // namespace minighost
