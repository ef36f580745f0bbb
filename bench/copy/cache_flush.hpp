// SPDX-License-Identifier: BSD-3-Clause
// Evicting the copy's source from the caches, as DASH's copy study requires: a read of a buffer
// of 2x the last-level cache before every timed copy. Reads, not writes, so the timed copy does
// not pay for writing dirty lines back.
#pragma once

#include <cstddef>
#include <vector>

namespace copybench {

class CacheFlush {
 public:
  explicit CacheFlush(std::size_t bytes);
  void operator()();  // one line of every 64 bytes read
  std::size_t bytes() const noexcept { return lines_.size() * 64; }

 private:
  std::vector<unsigned char> lines_;
};

}  // namespace copybench
