// SPDX-License-Identifier: BSD-3-Clause
// Future<R>: the result of an asynchronous copy (copy_async). wait() blocks until the data has
// arrived (or, copying into a distributed container, is visible at its owners), test() asks
// without blocking, get() waits and returns the result: the end of the range written or read, as
// DASH's copy_async does. A Future that is destroyed unfinished waits first, so no transfer can
// outlive the buffers it writes into.
#pragma once

#include <utility>

#include "ghostwire/segment_async.hpp"

namespace ghostwire {

template <class R>
class Future {
 public:
  Future(AsyncTransfer transfer, R result) : transfer_(std::move(transfer)), result_(std::move(result)) {}
  Future(Future&&) noexcept = default;
  Future& operator=(Future&&) noexcept = default;

  void wait() {
    if (!done_) transfer_.wait();
    done_ = true;
  }
  bool test() {
    if (!done_) done_ = transfer_.test();
    return done_;
  }
  R get() {
    wait();
    return result_;
  }

 private:
  AsyncTransfer transfer_;
  R result_;
  bool done_ = false;
};

}  // namespace ghostwire
