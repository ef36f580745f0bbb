// SPDX-License-Identifier: BSD-3-Clause
// Every benchmark message carries its stamp (a per-message number both ranks count in lockstep) in
// its first and last bytes, and the receiver checks it. An implementation that delivers nothing,
// delivers stale data, or raises the flag before the data has landed therefore fails loudly instead
// of looking fast. `--verify full` also fills and checks every byte in between (slower: for tests).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gwbench {

using Stamp = std::uint32_t;  // never 0: ghostwire reserves notification value 0 for "not set"

enum class Verify { ends, full };
const char* verify_name(Verify verify) noexcept;

class VerificationError : public std::runtime_error {
 public:
  explicit VerificationError(const std::string& message) : std::runtime_error(message) {}
};

// Writes the stamp into `message` (and, for Verify::full, the whole pattern).
void stamp_message(std::byte* message, std::size_t bytes, Stamp stamp, Verify verify) noexcept;
// Throws VerificationError naming the implementation, size, stamp and what was found instead.
void check_message(const std::byte* message, std::size_t bytes, Stamp stamp, Verify verify,
                   std::string_view implementation);
// For flags and notifications that carry the stamp themselves: `what` and `index` name it in the
// message ("flag", 3) and cost nothing while the check passes.
inline void check_stamp(Stamp found, Stamp expected, std::string_view implementation, const char* what, int index = -1);
[[noreturn]] void stamp_mismatch(Stamp found, Stamp expected, std::string_view implementation, const char* what,
                                 int index);
inline void check_stamp(Stamp found, Stamp expected, std::string_view implementation, const char* what, int index) {
  if (found != expected) [[unlikely]]
    stamp_mismatch(found, expected, implementation, what, index);
}

}  // namespace gwbench
