// SPDX-License-Identifier: BSD-3-Clause
#include "message_stamp.hpp"

#include <cstring>

#include "size_list.hpp"

namespace gwbench {
namespace {

// Changes at every position when the stamp changes by one (31 is odd), so stale data never matches.
std::byte pattern_byte(Stamp stamp, std::size_t i) noexcept {
  return static_cast<std::byte>((stamp * 31u + static_cast<std::uint32_t>(i)) & 0xffu);
}

// Messages of 8 bytes and more carry the whole 32-bit stamp at each end; shorter ones its low byte.
bool whole_stamp_fits(std::size_t bytes) noexcept { return bytes >= 2 * sizeof(Stamp); }

Stamp read_end(const std::byte* message, std::size_t bytes, bool last) noexcept {
  if (!whole_stamp_fits(bytes)) return static_cast<Stamp>(message[last ? bytes - 1 : 0]);
  Stamp value;
  std::memcpy(&value, message + (last ? bytes - sizeof value : 0), sizeof value);
  return value;
}

}  // namespace

const char* verify_name(Verify verify) noexcept { return verify == Verify::full ? "full" : "ends"; }

void stamp_message(std::byte* message, std::size_t bytes, Stamp stamp, Verify verify) noexcept {
  if (bytes == 0) return;
  if (verify == Verify::full)
    for (std::size_t i = 0; i < bytes; ++i) message[i] = pattern_byte(stamp, i);
  if (whole_stamp_fits(bytes)) {
    std::memcpy(message, &stamp, sizeof stamp);
    std::memcpy(message + bytes - sizeof stamp, &stamp, sizeof stamp);
  } else {
    message[0] = message[bytes - 1] = static_cast<std::byte>(stamp & 0xffu);
  }
}

void check_message(const std::byte* message, std::size_t bytes, Stamp stamp, Verify verify,
                   std::string_view implementation) {
  if (bytes == 0) return;
  Stamp expected = whole_stamp_fits(bytes) ? stamp : (stamp & 0xffu);
  Stamp first = read_end(message, bytes, false), last = read_end(message, bytes, true);
  if (first != expected || last != expected)
    throw VerificationError(std::string(implementation) + ": a " + format_size(bytes) + " message stamped " +
                            std::to_string(expected) + " arrived holding " + std::to_string(first) +
                            " in its first bytes and " + std::to_string(last) +
                            " in its last (data missing, stale or overtaken by its flag)");
  if (verify != Verify::full) return;
  std::size_t end_bytes = whole_stamp_fits(bytes) ? sizeof(Stamp) : 1;
  for (std::size_t i = end_bytes; i + end_bytes < bytes; ++i)
    if (message[i] != pattern_byte(stamp, i))
      throw VerificationError(std::string(implementation) + ": byte " + std::to_string(i) + " of a " +
                              format_size(bytes) + " message stamped " + std::to_string(stamp) + " is " +
                              std::to_string(static_cast<unsigned>(message[i])) + ", expected " +
                              std::to_string(static_cast<unsigned>(pattern_byte(stamp, i))));
}

void stamp_mismatch(Stamp found, Stamp expected, std::string_view implementation, const char* what, int index) {
  throw VerificationError(std::string(implementation) + ": " + what + (index >= 0 ? " " + std::to_string(index) : "") +
                          " carries " + std::to_string(found) + ", expected " + std::to_string(expected));
}

}  // namespace gwbench
