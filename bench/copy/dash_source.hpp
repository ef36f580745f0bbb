// SPDX-License-Identifier: BSD-3-Clause
// The DASH array the dash-copy variant reads (built with GHOSTWIRE_DASH_DIR only): created before
// the study, the same size, block and values as the ghostwire array. Plain C++14 on purpose:
// dash_copy.cpp is compiled at DASH's own standard (its headers are not valid C++20), so it sees
// this header and DASH's only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace copybench {

class DashSource {
 public:
  DashSource(int* argc, char*** argv, std::int64_t total);
  ~DashSource();
  DashSource(const DashSource&) = delete;
  DashSource& operator=(const DashSource&) = delete;
  // `count` elements from global index `first` into `out`, complete on return.
  void copy(std::int64_t first, std::size_t count, double* out) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace copybench
