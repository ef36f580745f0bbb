// SPDX-License-Identifier: BSD-3-Clause
// Staging halves, as paths between node peers that pack on the sender use them (staged, pushed):
// two halves of a message each, rounded to cache lines, in the sender's end's shared memory.
#pragma once

#include <cstddef>

#include "halo/commit/slot_build.hpp"
#include "runtime/segment_state.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {

inline std::size_t staging_half_bytes(std::size_t message_bytes) { return round_up(message_bytes, 64); }
inline std::size_t staging_bytes(std::size_t message_bytes) { return 2 * staging_half_bytes(message_bytes); }

// Messages from this size on are packed with streaming stores when a peer's core reads them next
// (not when I read them back myself): the sender need not take each line back from the reader's
// cache. Below it the reader, often already waiting, would read the lines from memory instead of
// from the sender's cache: the PetscSF type's 512 B - 8 KiB messages took up to 1.25x as long so,
// while plans' 4 - 32 KiB faces measured the same either way (docs/internals/plans.md).
constexpr std::size_t streaming_message_bytes = 64 * 1024;

// Sending: my half `parity`, and the program that packs into it.
inline std::byte* my_staging(const SlotBuild& b, int parity) {
  return b.my_shared_memory() + static_cast<std::size_t>(parity) * staging_half_bytes(b.bytes);
}
inline CopyProgram pack_into_staging(const SlotBuild& b, int parity) {
  return b.pack_into(my_staging(b, parity), b.rank != b.plan.w->rank && b.bytes >= streaming_message_bytes);
}
// Receiving from a node peer that stages: its half `parity`.
inline const std::byte* peer_staging(const SlotBuild& b, int parity) {
  return b.peer_shared_memory() + static_cast<std::size_t>(parity) * staging_half_bytes(b.bytes);
}

}  // namespace ghostwire::detail
