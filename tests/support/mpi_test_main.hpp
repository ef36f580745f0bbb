// SPDX-License-Identifier: BSD-3-Clause
// Shared by ghostwire's MPI test programs: one World for the whole run, and command-line
// expectations such as --expect-nodes=N that a launch passes to the tests.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "ghostwire/world.hpp"

namespace gwtest {

ghostwire::World& world();
// Value of --NAME=VALUE given on the command line after the gtest flags, or `fallback`.
std::string option(const std::string& name, const std::string& fallback = "");
long option_integer(const std::string& name, long fallback);

// Asserts that `body` throws a ghostwire::Error with code `expected_code` whose message contains every
// string of `fragments`.
#define GW_EXPECT_ERROR(body, expected_code, ...)                                                       \
  do {                                                                                         \
    bool gw_threw = false;                                                                     \
    try {                                                                                      \
      body;                                                                                    \
    } catch (const ghostwire::Error& gw_error) {                                               \
      gw_threw = true;                                                                         \
      EXPECT_EQ(static_cast<int>(gw_error.code()), static_cast<int>(expected_code)) << gw_error.what(); \
      for (const char* gw_fragment : {__VA_ARGS__})                                            \
        EXPECT_NE(std::string(gw_error.what()).find(gw_fragment), std::string::npos)          \
            << "message '" << gw_error.what() << "' lacks '" << gw_fragment << "'";           \
    }                                                                                          \
    EXPECT_TRUE(gw_threw) << #body " did not throw";                                          \
  } while (0)

}  // namespace gwtest
