// SPDX-License-Identifier: BSD-3-Clause
/* What the C API's tests share: CHECK(condition, printf-style message) counts and prints a failure
 * with the test's name and line; OK(call) checks that a call returned GW_SUCCESS. Define
 * C_CHECK_NAME (a string) before including. */
#ifndef GW_TESTS_C_CHECK_H
#define GW_TESTS_C_CHECK_H

#include <stdio.h>

static int failures = 0;
#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      fprintf(stderr, "%s:%d: ", C_CHECK_NAME, __LINE__);  \
      fprintf(stderr, __VA_ARGS__);                        \
      fprintf(stderr, "\n");                               \
      ++failures;                                          \
    }                                                      \
  } while (0)
#define OK(call) CHECK((call) == GW_SUCCESS, "%s: %s", #call, gw_last_error_message())

#endif
