// SPDX-License-Identifier: BSD-3-Clause
// A large copy between node peers' memory in pieces of 128 KiB, as Open MPI's datatype engine
// copies an MPI_Get from a shared window: one memcpy of a MiB or more out of cache (glibc's
// `rep movsb` path) measured slower than the same bytes in pieces on the AMD EPYC VM
// (docs/copy-study.md, "Reading the numbers").
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace ghostwire::detail {

inline constexpr std::size_t copy_piece_bytes = 128 * 1024;

inline void piecewise_copy(std::byte* to, const std::byte* from, std::size_t bytes) {
  for (std::size_t done = 0; done < bytes; done += copy_piece_bytes)
    std::memcpy(to + done, from + done, std::min(copy_piece_bytes, bytes - done));
}

}  // namespace ghostwire::detail
