// SPDX-License-Identifier: BSD-3-Clause
// A message path defined by the tests, not by the library: proof that a path is a plug-in. It
// registers itself when a program that links it starts; GHOSTWIRE_INTRA_PATH=bounce forces it.
#pragma once

#include <atomic>
#include <cstdint>

namespace gwtest {

// Messages the bounce path has delivered in this process, so a test can see that it ran.
extern std::atomic<std::uint64_t> bounce_messages;
// Its description, as Plan::describe() prints it.
extern const char* const bounce_description;

}  // namespace gwtest
