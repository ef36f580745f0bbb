// SPDX-License-Identifier: BSD-3-Clause
// Layout of a segment: each rank's part is [notification slots | data], page aligned, allocated as
// one MPI shared window over the node and, when there are several nodes, also exposed through a
// window over the whole world for one-sided access from other nodes (unless MPI cannot create
// windows between nodes: docs/running.md, "Open MPI"). Invariant: peer_base is null exactly for the
// ranks on other nodes. docs/runtime.md, "Segments".
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ghostwire/segment.hpp"
#include "world_state.hpp"

namespace ghostwire::detail {

inline constexpr std::size_t page_bytes = 4096;

inline std::size_t round_up(std::size_t value, std::size_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

struct SegmentState {
  World* world = nullptr;
  WorldState* w = nullptr;
  int id = -1;
  MPI_Win shared_window = MPI_WIN_NULL;
  MPI_Win world_window = MPI_WIN_NULL;
  std::size_t notification_count = 0;
  std::size_t data_offset = 0;  // bytes of the notification area, page rounded
  std::byte* base = nullptr;     // my part
  std::vector<std::size_t> sizes;          // data bytes of every rank
  std::vector<std::byte*> peer_base;       // part of every node peer, null off-node

  std::byte* data() const noexcept { return base + data_offset; }
  std::uint32_t* notifications() const noexcept { return reinterpret_cast<std::uint32_t*>(base); }
};

// Declared in the public header as Segment's friends, defined only here: internal code reaches the
// state, users cannot.
inline SegmentState& segment_state(Segment& segment) noexcept { return *segment.state_; }
inline const SegmentState& segment_state(const Segment& segment) noexcept { return *segment.state_; }

// Throws out_of_range unless [offset, offset + bytes) lies in `rank`'s part.
void check_range(const SegmentState& s, int rank, std::size_t offset, std::size_t bytes, const char* call);

// Throws unless `s` has its window over the world, through which one-sided calls reach `rank` on
// another node: Errc::unsupported naming what to set when MPI has no windows between nodes
// (WorldState::no_windows_between_nodes).
void require_world_window(const SegmentState& s, int rank, const char* call);

// Release store of a notification: whoever reads it with acquire sees the data written before.
inline void store_notification(std::uint32_t* slot, std::uint32_t value) noexcept {
  std::atomic_ref<std::uint32_t>(*slot).store(value, std::memory_order_release);
}

}  // namespace ghostwire::detail
