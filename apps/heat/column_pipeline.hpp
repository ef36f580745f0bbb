// SPDX-License-Identifier: BSD-3-Clause
// The engine of gw-pipelined (and of commfree, which is the same traversal without messages):
// every column block carries its own sweep counter, as in the GASPI-SHAN 011 version, so column
// blocks of one rank may be in different sweeps and a rank never waits for a whole sweep.
//
// Column block j may do its sweep t (0-based: it has done t sweeps) when
//   - left:  block j-1 has done sweep t (its new values are j's left neighbours),
//   - right: block j+1 has done exactly t sweeps (its values after sweep t-1 are j's right
//            neighbours; it cannot be further, because its own sweep t waits for j),
//   - upper: the upper rank's last row under block j after its sweep t has been received,
//   - lower: the lower rank's first row under block j after its sweep t-1 has been received (from
//            sweep 1 on; the initial lower halo is already in place),
//   - my first and last row under block j, sent after sweep t-1, have been consumed, so they may
//     be overwritten.
// These are exactly the dependencies of the lexicographic sweep, so the result is seq's to the bit.
// The original has no right-block rule (block j-1 can run ahead into sweep t+1 and read j's values
// before j has done sweep t) and no left-block rule in 010, so it is not lexicographic.
//
// After its sweep t, block j sends its first row up (not after the last sweep: nobody reads it;
// the upper rank's last row is then acknowledged on its own) and its last row down. Halos are
// received ahead (receive_ahead), as soon as they have arrived and their block has stopped
// reading the previous one, not when the block's turn comes. With gw-pipelined's protocol a node
// peer's halo is read in place by the kernel and released right after the relax; the messages
// above then also carry the acknowledgements (column_block_plan.hpp).
//
// Counters never differ by more than one between neighbour blocks, so the blocks form a
// staircase: block 0 may already be in sweep t+1 while block j waits for the upper rank in sweep
// t. Only the blocks at the corners of the staircase can move; they are all a pass looks at.
//
// See docs/heat.md, "The ghostwire variants".
#pragma once

#include <string>
#include <vector>

#include "band.hpp"
#include "column_block_plan.hpp"
#include "decomposition.hpp"
#include "idle_passes.hpp"

namespace heat {

class ColumnPipeline {
 public:
  // `messages` null: no communication (commfree, or one rank). `unsynchronised`
  // (commfree-rows): the node peers' rows are read in place but nothing is sent or waited for, so
  // the cost of moving the boundary rows between the cores is measured without the messages.
  ColumnPipeline(const Decomposition& d, Band& band, ColumnBlockPlan* messages, const IdlePolicy& idle,
                 bool unsynchronised = false);

  // `timesteps` sweeps in greedy passes over the column blocks; returns when every block has done
  // them and every row it sent has been consumed.
  void run(int timesteps);

 private:
  struct Block {
    int done = 0;                 // sweeps completed
    int upper_received = 0;       // messages copied into the upper halo (the one for sweep t is the (t+1)-th)
    int lower_received = 0;       // messages copied into the lower halo (the one for sweep t is the t-th)
    bool first_row_sent = false;  // not yet known to be consumed by the upper rank
    bool last_row_sent = false;   // not yet known to be consumed by the lower rank
  };

  enum class Step { none, received, relaxed };
  // Whether block j's left and right rules hold (it is ready but for messages).
  bool locally_ready(int j) const;
  // One step of the state machine of a locally ready block j.
  Step advance(int j);
  std::string describe_wait() const;
  void prefetch_arrived_halos(int j) const;
  // Copies halos that have arrived into every block whose halo is free, ahead of its turn: the
  // sender's row is acknowledged sooner (it may be overwritten in the sender's next sweep), and the
  // copy, a read from another core's cache, happens while this rank would otherwise wait.
  bool receive_ahead();

  const Decomposition& d_;
  Band& band_;
  ColumnBlockPlan* messages_;
  bool unsynchronised_;
  bool has_upper_, has_lower_;
  IdlePolicy idle_policy_;
  int timesteps_ = 0;
  std::vector<Block> blocks_;
  // The locally ready blocks, ascending: the corners of the staircase of sweep counters. A block
  // becomes locally ready only when a neighbour block advances, so a pass visits these few blocks
  // instead of all of them.
  std::vector<int> ready_;
  // The neighbours finish a sweep's column blocks in column order, so their messages arrive in
  // (sweep, block) order: the next one to look for from the upper and from the lower rank.
  struct Cursor {
    int sweep = 0;
    int block = 0;
  };
  Cursor upper_cursor_, lower_cursor_;
};

}  // namespace heat
