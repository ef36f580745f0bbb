// SPDX-License-Identifier: BSD-3-Clause
// Message sequence numbers and the counter words node peers talk through (docs/plans.md, "How a
// plan works inside"). Every counter is written by one side only: a release store publishes
// everything the writer did before it, an acquire load that sees the value sees all of that.
#pragma once

#include <atomic>
#include <cstdint>

namespace ghostwire::detail {

// Sequence numbers run 1, 2, ..., 0xFFFFFFFE, 1, ...: 0 means "nothing yet", and the wrap from an
// even number to 1 keeps odd and even alternating, as the double buffers need (message k uses
// buffer k & 1; a wrap from 0xFFFFFFFF to 1 would put two odd messages in a row into one half).
inline std::uint32_t next_sequence(std::uint32_t sequence) { return sequence >= 0xFFFFFFFEu ? 1u : sequence + 1; }
// The message before `sequence` (0 before the first; 0xFFFFFFFE before a wrapped 1 too: a double
// buffer's other half is free in both cases).
inline bool is_previous(std::uint32_t candidate, std::uint32_t sequence) {
  if (sequence <= 1) return candidate == 0 || candidate == 0xFFFFFFFEu;
  return candidate == sequence - 1;
}
inline std::uint32_t previous_sequence(std::uint32_t sequence) { return sequence <= 1 ? 0xFFFFFFFEu : sequence - 1; }
inline int parity_of(std::uint32_t sequence) { return static_cast<int>(sequence & 1u); }

// A node peer's posted word: the message's sequence number in the low half and, in the high half,
// what the path adds (the acknowledgement riding on a reply; how a pushed message went).
inline std::uint64_t posted_word(std::uint32_t sequence, std::uint32_t extra) {
  return sequence | (static_cast<std::uint64_t>(extra) << 32);
}
inline std::uint32_t posted_sequence(std::uint64_t word) { return static_cast<std::uint32_t>(word); }
inline std::uint32_t posted_extra(std::uint64_t word) { return static_cast<std::uint32_t>(word >> 32); }

inline std::uint32_t load(const std::uint32_t* counter) {
  return std::atomic_ref<const std::uint32_t>(*counter).load(std::memory_order_acquire);
}
inline void store(std::uint32_t* counter, std::uint32_t value) {
  std::atomic_ref<std::uint32_t>(*counter).store(value, std::memory_order_release);
}
inline std::uint64_t load(const std::uint64_t* counter) {
  return std::atomic_ref<const std::uint64_t>(*counter).load(std::memory_order_acquire);
}
inline void store(std::uint64_t* counter, std::uint64_t value) {
  std::atomic_ref<std::uint64_t>(*counter).store(value, std::memory_order_release);
}

}  // namespace ghostwire::detail
