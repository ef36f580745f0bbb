// SPDX-License-Identifier: BSD-3-Clause
// Turns C++ exceptions into C error codes plus a thread-local message.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>

#include "ghostwire/combine.hpp"
#include "ghostwire/error.hpp"
#include "ghostwire/ghostwire.h"

namespace ghostwire::capi {

void set_last_error(const std::string& message);

template <class Body>
int guarded(Body&& body) noexcept {
  try {
    body();
    set_last_error("");
    return GW_SUCCESS;
  } catch (const Error& error) {
    set_last_error(error.what());
    return static_cast<int>(error.code());
  } catch (const std::exception& error) {
    set_last_error(error.what());
    return GW_ERR_INTERNAL;
  } catch (...) {
    set_last_error("unknown exception");
    return GW_ERR_INTERNAL;
  }
}

template <class Handle>
void require(const Handle* pointer, const char* name) {
  if (pointer == nullptr) raise(Errc::invalid_argument, std::string(name) + " is NULL");
}

// GW_SUM, GW_MIN, GW_MAX (and GW_REPLACE where `replace_allowed`) as a ReduceOp, else Errc::invalid_argument.
inline ReduceOp reduce_op(int op, const char* call, bool replace_allowed) {
  const int last = replace_allowed ? GW_REPLACE : GW_MAX;
  if (op < GW_SUM || op > last)
    raise(Errc::invalid_argument, std::string(call) + ": op is " + std::to_string(op) + "; expected GW_SUM, GW_MIN, GW_MAX" +
                                      (replace_allowed ? " or GW_REPLACE" : ""));
  const ReduceOp ops[] = {ReduceOp::sum, ReduceOp::min, ReduceOp::max, ReduceOp::replace};
  return ops[op];
}

// GW_DOUBLE, GW_FLOAT, GW_INT32 or GW_INT64 as a ScalarType (the same order), else Errc::invalid_argument.
inline ScalarType scalar_type(int type, const char* call) {
  if (type < GW_DOUBLE || type > GW_INT64)
    raise(Errc::invalid_argument, std::string(call) + ": type is " + std::to_string(type) +
                                      "; expected GW_DOUBLE, GW_FLOAT, GW_INT32 or GW_INT64");
  return static_cast<ScalarType>(type);
}

// Copies text into a caller's buffer of `capacity` bytes, truncated and NUL-terminated.
inline void copy_text(const std::string& from, char* text, std::size_t capacity) {
  require(text, "text");
  if (capacity == 0) return;
  std::size_t length = std::min(from.size(), capacity - 1);
  std::memcpy(text, from.data(), length);
  text[length] = '\0';
}

}  // namespace ghostwire::capi
