// SPDX-License-Identifier: BSD-3-Clause
#include "cache_flush.hpp"

namespace copybench {

// Where the flush's sum goes: a volatile, so the compiler must do the reads.
volatile unsigned flush_sink;

CacheFlush::CacheFlush(std::size_t bytes) : lines_(bytes / 64 * 64, 1) {}  // written once: real pages

void CacheFlush::operator()() {
  unsigned sum = 0;
  for (std::size_t i = 0; i < lines_.size(); i += 64) sum += lines_[i];
  flush_sink = sum;
}

}  // namespace copybench
