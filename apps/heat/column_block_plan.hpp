// SPDX-License-Identifier: BSD-3-Clause
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
//
// Two protocols (Protocol):
//  - copy (gw-wavefront, as GASPI-SHAN's 010): a receive copies the node peer's row into my halo
//    and acknowledges it at once.
//  - in_place (gw-pipelined): a node peer's row is not copied at all: the kernel reads it where
//    the peer keeps it (halo_source), and the acknowledgement rides on my next message back on
//    the same column block (Plan::acknowledge_by_reply). Safe because the wavefront itself orders
//    it: the upper rank rewrites its last row under block j only after my first row under block j
//    of the same sweep has arrived, which I send after relaxing block j, so after reading its row
//    (and symmetrically for the lower rank). Rows from other nodes are still copied in.
//
// See docs/heat.md, "The ghostwire variants".
#pragma once

#include <ghostwire/plan.hpp>
#include <ghostwire/segment.hpp>
#include <ghostwire/world.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "band.hpp"
#include "decomposition.hpp"

namespace heat {

class ColumnBlockPlan {
 public:
  enum class Protocol { copy, in_place };
  // Collective over the world (Plan::commit). `band_memory` holds `band` (band.hpp) at its start.
  ColumnBlockPlan(ghostwire::World& world, ghostwire::Segment& band_memory, const Band& band, const Decomposition& d,
                  Protocol protocol);

  bool has_upper() const { return upper_ >= 0; }
  bool has_lower() const { return lower_ >= 0; }

  // Receive the next message of block j into the upper / lower halo, if it has arrived: copied
  // in, or (in_place, from a node peer) only marked received, to be read at *_halo_source(j).
  bool receive_upper_halo(int j) { return receive(j, upper_, upper_view_); }
  bool receive_lower_halo(int j) { return receive(j, lower_, lower_view_); }
  // Where the kernel reads the received upper / lower halo of block j (at the block's first
  // column): the node peer's row itself (in_place), or null for my own halo row.
  const double* upper_halo_source(int j) const { return upper_view_.empty() ? nullptr : upper_view_[static_cast<std::size_t>(j)]; }
  const double* lower_halo_source(int j) const { return lower_view_.empty() ? nullptr : lower_view_[static_cast<std::size_t>(j)]; }
  // Done reading block j's received halos (in_place: acknowledged with my next sends).
  void release_halos(int j) {
    if (protocol_ != Protocol::in_place) return;
    if (has_upper()) plan_.release(static_cast<std::size_t>(j), upper_);
    if (has_lower()) plan_.release(static_cast<std::size_t>(j), lower_);
  }
  // After my last sweep of block j, when no first row answers the upper rank's last row.
  void acknowledge_upper_halo(int j) { plan_.acknowledge(static_cast<std::size_t>(j), upper_); }

  // Announce my first / last row under block j to the upper / lower rank.
  void send_first_row(int j) { plan_.send(static_cast<std::size_t>(j), upper_); }
  void send_last_row(int j) { plan_.send(static_cast<std::size_t>(j), lower_); }

  // Has the neighbour consumed the last message of block j (so the row may change again)?
  bool first_row_consumed(int j) { return plan_.test_send(static_cast<std::size_t>(j), upper_); }
  bool last_row_consumed(int j) { return plan_.test_send(static_cast<std::size_t>(j), lower_); }
  void wait_last_row_consumed(int j) { plan_.wait_send(static_cast<std::size_t>(j), lower_); }

  // Asks the processor to fetch what receiving block j's halos will read from node peers (their
  // boundary rows, in place), so that the copy (or the kernel) does not wait for the other core's
  // cache. A hint only; nothing for neighbours on other nodes. Fetching a row before the peer has
  // written it would only make the peer take the line back, so in_place fetches arrived rows only.
  void prefetch_upper_source(int j) const {
    if (upper_source_ != nullptr) prefetch(upper_source_ + offset_of_block(j));
  }
  void prefetch_lower_source(int j) const {
    if (lower_source_ != nullptr) prefetch(lower_source_ + offset_of_block(j));
  }
  void prefetch_halo_sources(int j) const {
    prefetch_upper_source(j);
    prefetch_lower_source(j);
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

  // In place, a packed message (GHOSTWIRE_INTRA_PATH=staged) is read in the half of the sender's
  // double buffer it went to: view() says which after each receipt.
  bool receive(int j, int rank, std::vector<const double*>& views) {
    const auto slot = static_cast<std::size_t>(j);
    if (protocol_ != Protocol::in_place) return plan_.test_recv(slot, rank);
    if (!plan_.test_recv_in_place(slot, rank)) return false;
    if (!views.empty()) views[slot] = reinterpret_cast<const double*>(plan_.view(slot, rank));
    return true;
  }

  ghostwire::Plan plan_;
  Protocol protocol_;
  int rank_ = 0;
  int upper_ = -1;
  int lower_ = -1;
  int block_ = 1;  // BY
  // Column 0 of the node peers' rows that my halos copy: the upper rank's last row, the lower
  // rank's first row (null off-node), found by laying a Band over their part of the segment.
  const double* upper_source_ = nullptr;
  const double* lower_source_ = nullptr;
  // in_place: per block, the node peer's row read in place (Plan::view); empty otherwise.
  std::vector<const double*> upper_view_, lower_view_;
};

}  // namespace heat
