// SPDX-License-Identifier: BSD-3-Clause
// The kinds of path a slot's message can take (docs/plans.md, "How a message travels"). The order
// is the order of the alternatives in SendPath and ReceivePath (slot.hpp) and the number the commit
// descriptor carries.
#pragma once

#include <cstdint>

namespace ghostwire::detail {

enum class SlotPath : std::uint8_t {
  in_place,        // node peer: the receiver copies from the sender's live data
  staged,          // node peer: the sender packs into shared staging, the receiver copies out
  pushed,          // node peer: the sender writes into the receiver's ghost cells once they are free
  two_sided,       // other node: pack, persistent MPI message into the receiver's double buffer
  notified_write,  // other node: pack, notified write (one-sided) into the receiver's double buffer
  aggregated,      // other node: a part of one combined message per pair of nodes (halo/node_pairs.hpp)
};
inline constexpr int slot_path_count = 6;

// What describe() prints for the path.
const char* path_name(SlotPath path);

}  // namespace ghostwire::detail
