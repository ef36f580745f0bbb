// The halo traffic of the ghostwire variants: one ghostwire Plan whose neighbours are the upper
// and the lower rank, with one channel per column block. On channel j:
//
//   to the upper rank:    my first row under block j  ->  its lower halo under block j
//   from the upper rank:  its last row under block j  ->  my upper halo under block j
//   to the lower rank:    my last row under block j   ->  its upper halo under block j
//   from the lower rank:  its first row under block j ->  my lower halo under block j
//
// A slot is (channel, neighbour), so every column block and direction has its own counters and
// messages of different blocks never wait for each other. The band lives in a ghostwire Segment:
// a node peer copies my boundary row straight out of my band into its halo (one copy, no
// packing); to another node the row is packed and written with a notification.
//
// The rules of a slot (plan.hpp): after send(), the sent row must not change until the receiver
// has consumed it (row_consumed() true); a receive copies the next message into the halo, which
// must not be read by a sweep that still needs the previous one.
#pragma once

#include <ghostwire/plan.hpp>
#include <ghostwire/segment.hpp>
#include <ghostwire/world.hpp>

#include <cstddef>
#include <string>

#include "band.hpp"
#include "decomposition.hpp"

namespace heat {

class ColumnBlockPlan {
 public:
  // Collective over the world (Plan::commit). `band_memory` holds `band` (band.hpp) at its start.
  ColumnBlockPlan(ghostwire::World& world, ghostwire::Segment& band_memory, const Band& band, const Decomposition& d);

  bool has_upper() const { return upper_ >= 0; }
  bool has_lower() const { return lower_ >= 0; }

  // Copy the next message of block j into the upper / lower halo, if it has arrived.
  bool receive_upper_halo(int j) { return plan_.test_recv(static_cast<std::size_t>(j), upper_); }
  bool receive_lower_halo(int j) { return plan_.test_recv(static_cast<std::size_t>(j), lower_); }

  // Announce my first / last row under block j to the upper / lower rank.
  void send_first_row(int j) { plan_.send(static_cast<std::size_t>(j), upper_); }
  void send_last_row(int j) { plan_.send(static_cast<std::size_t>(j), lower_); }

  // Has the neighbour consumed the last message of block j (so the row may change again)?
  bool first_row_consumed(int j) { return plan_.test_send(static_cast<std::size_t>(j), upper_); }
  bool last_row_consumed(int j) { return plan_.test_send(static_cast<std::size_t>(j), lower_); }
  void wait_last_row_consumed(int j) { plan_.wait_send(static_cast<std::size_t>(j), lower_); }

  // Asks the processor to fetch what receiving block j's halos will read from node peers (their
  // boundary rows, in place), so that the copy does not wait for the other core's cache. A hint
  // only; nothing for neighbours on other nodes.
  void prefetch_halo_sources(int j) const {
    if (upper_source_ != nullptr) prefetch(upper_source_ + offset_of_block(j));
    if (lower_source_ != nullptr) prefetch(lower_source_ + offset_of_block(j));
  }

  // "rank 2: upper rank 1 intra-node, lower rank 3 inter-node" (for diagnostics).
  std::string describe() const;

 private:
  std::ptrdiff_t offset_of_block(int j) const { return 1 + static_cast<std::ptrdiff_t>(j) * block_; }
  // 8 doubles: a cache line; column blocks start on one when BY is a multiple of 8 (band.hpp).
  void prefetch(const double* first) const {
    for (int k = 0; k < block_; k += 8) __builtin_prefetch(first + k);
    __builtin_prefetch(first + block_ - 1);  // other widths may end in one more line
  }

  ghostwire::Plan plan_;
  int rank_ = 0;
  int upper_ = -1;
  int lower_ = -1;
  int block_ = 1;  // BY
  // Column 0 of the node peers' rows that my halos copy: the upper rank's last row, the lower
  // rank's first row (null off-node), found by laying a Band over their part of the segment.
  const double* upper_source_ = nullptr;
  const double* lower_source_ = nullptr;
};

}  // namespace heat
