// SPDX-License-Identifier: BSD-3-Clause
// ColumnPipeline's passes (column_pipeline.hpp): which column block may do its next sweep, the
// halos received ahead, and what a stalled pass waits for (see docs/heat.md,
// "The ghostwire variants").
#include "column_pipeline.hpp"

#include "tile_kernel.hpp"

namespace heat {

ColumnPipeline::ColumnPipeline(const Decomposition& d, Band& band, ColumnBlockPlan* messages, const IdlePolicy& idle,
                               bool unsynchronised)
    : d_(d),
      band_(band),
      messages_(messages),
      unsynchronised_(unsynchronised),
      has_upper_(messages != nullptr && messages->has_upper()),
      has_lower_(messages != nullptr && messages->has_lower()),
      idle_policy_(idle) {}

bool ColumnPipeline::locally_ready(int j) const {
  const int t = blocks_[static_cast<std::size_t>(j)].done;  // the sweep this block would do next
  if (t == timesteps_) return false;
  if (j > 0 && blocks_[static_cast<std::size_t>(j - 1)].done <= t) return false;              // left
  if (j + 1 < d_.tile_cols && blocks_[static_cast<std::size_t>(j + 1)].done < t) return false;  // right
  return true;
}

ColumnPipeline::Step ColumnPipeline::advance(int j) {
  Block& block = blocks_[static_cast<std::size_t>(j)];
  const int t = block.done;
  Step step = Step::none;
  if (unsynchronised_) {
    relax_column_block_rows(band_, d_, j, 1, d_.band_rows, has_upper_ ? messages_->upper_halo_source(j) : nullptr,
                            has_lower_ && t > 0 ? messages_->lower_halo_source(j) : nullptr);
    ++block.done;
    return Step::relaxed;
  }
  if (has_upper_ && block.upper_received == t) {
    if (!messages_->receive_upper_halo(j)) return step;
    ++block.upper_received;
    step = Step::received;
  }
  if (has_lower_ && block.lower_received < t) {
    if (!messages_->receive_lower_halo(j)) return step;
    ++block.lower_received;
    step = Step::received;
  }
  // The neighbours consume a row when their own block j is ready for the sweep that needs it,
  // which happens before they send what this block needs next: these tests rarely fail.
  if (block.first_row_sent) {
    if (!messages_->first_row_consumed(j)) return step;
    block.first_row_sent = false;
  }
  if (block.last_row_sent) {
    if (!messages_->last_row_consumed(j)) return step;
    block.last_row_sent = false;
  }

  if (messages_ != nullptr && j + 1 < d_.tile_cols) prefetch_arrived_halos(j + 1);
  // The node peers' rows are read where they are (the lower halo from sweep 1 on: sweep 0 reads
  // the initial halo, while the lower rank may already be rewriting its first row).
  const double* above = has_upper_ ? messages_->upper_halo_source(j) : nullptr;
  const double* below = has_lower_ && t > 0 ? messages_->lower_halo_source(j) : nullptr;
  relax_column_block_rows(band_, d_, j, 1, d_.band_rows, above, below);
  ++block.done;
  if (messages_ != nullptr) messages_->release_halos(j);
  if (has_upper_ && block.done < timesteps_) {
    messages_->send_first_row(j);
    block.first_row_sent = true;
  } else if (has_upper_) {
    messages_->acknowledge_upper_halo(j);  // no first row answers the last one from above
  }
  if (has_lower_) {
    messages_->send_last_row(j);
    block.last_row_sent = true;
  }
  return Step::relaxed;
}

// The halos the kernel will read from node peers' caches: fetching them while this block is
// relaxed keeps the next block from stalling on them. Only rows that have arrived: fetching one
// the peer has yet to write would make the peer take the line back.
void ColumnPipeline::prefetch_arrived_halos(int j) const {
  const Block& block = blocks_[static_cast<std::size_t>(j)];
  if (has_upper_ && block.upper_received > block.done) messages_->prefetch_upper_source(j);
  if (has_lower_ && block.done > 0 && block.lower_received >= block.done) messages_->prefetch_lower_source(j);
}

bool ColumnPipeline::receive_ahead() {
  bool received = false;
  const int blocks = d_.tile_cols;
  // Upper halo of sweep t for block j (its (t+1)-th message): free once block j has done t sweeps.
  while (has_upper_ && upper_cursor_.sweep < timesteps_) {
    Block& block = blocks_[static_cast<std::size_t>(upper_cursor_.block)];
    if (block.upper_received == upper_cursor_.sweep) {
      if (block.done < upper_cursor_.sweep || !messages_->receive_upper_halo(upper_cursor_.block)) break;
      ++block.upper_received;
      received = true;
    }
    if (++upper_cursor_.block == blocks) upper_cursor_ = {upper_cursor_.sweep + 1, 0};
  }
  // Lower halo after the lower rank's sweep s, needed by block j's sweep s+1 (its (s+1)-th message;
  // none after the last sweep): free once block j has done s+1 sweeps.
  while (has_lower_ && lower_cursor_.sweep + 1 < timesteps_) {
    Block& block = blocks_[static_cast<std::size_t>(lower_cursor_.block)];
    if (block.lower_received == lower_cursor_.sweep) {
      if (block.done < lower_cursor_.sweep + 1 || !messages_->receive_lower_halo(lower_cursor_.block)) break;
      ++block.lower_received;
      received = true;
    }
    if (++lower_cursor_.block == blocks) lower_cursor_ = {lower_cursor_.sweep + 1, 0};
  }
  return received;
}

void ColumnPipeline::run(int timesteps) {
  timesteps_ = timesteps;
  blocks_.assign(static_cast<std::size_t>(d_.tile_cols), Block{});
  ready_.clear();
  if (timesteps > 0 && d_.tile_cols > 0) ready_.push_back(0);  // in sweep 0 only block 0 may start
  upper_cursor_ = lower_cursor_ = Cursor{};
  IdlePasses idle(idle_policy_);
  while (!ready_.empty()) {
    bool changed = messages_ != nullptr && !unsynchronised_ && receive_ahead();
    for (std::size_t i = 0; i < ready_.size();) {
      const int j = ready_[i];
      const Step step = advance(j);
      if (step != Step::relaxed) {
        changed |= step == Step::received;
        ++i;
        continue;
      }
      changed = true;
      // Block j moved on. Readiness changes only at j and its neighbours: j-1 (its right rule),
      // j+1 (its left rule) and j itself (ready again only when it has no neighbours). Blocks from
      // j on run next in this pass; j-1, if new, is inserted before them and waits for the next.
      ready_.erase(ready_.begin() + static_cast<std::ptrdiff_t>(i));
      for (const int k : {j + 1, j}) {
        if (k < d_.tile_cols && locally_ready(k) && (i == ready_.size() || ready_[i] != k)) {
          ready_.insert(ready_.begin() + static_cast<std::ptrdiff_t>(i), k);
        }
      }
      if (j > 0 && locally_ready(j - 1) && (i == 0 || ready_[i - 1] != j - 1)) {
        ready_.insert(ready_.begin() + static_cast<std::ptrdiff_t>(i), j - 1);
        ++i;
      }
    }
    if (changed) {
      idle.progressed();
    } else {
      idle.idle([&] { return describe_wait(); });
    }
  }
  // Nothing may be in flight on return: the last rows of the last sweep are still being read.
  for (int j = 0; j < d_.tile_cols; ++j) {
    Block& block = blocks_[static_cast<std::size_t>(j)];
    if (block.last_row_sent && !unsynchronised_) messages_->wait_last_row_consumed(j);
    block.last_row_sent = false;
  }
}

std::string ColumnPipeline::describe_wait() const {
  std::string text = "gw-pipelined " + (messages_ != nullptr ? messages_->describe() : std::string("(no messages)")) +
                     "; the column blocks that could move (sweeps done of " + std::to_string(timesteps_) + "):";
  for (const int j : ready_) {
    const Block& block = blocks_[static_cast<std::size_t>(j)];
    const int t = block.done;
    std::string wants;
    if (has_upper_ && block.upper_received == t) {
      wants = "the upper rank's last row after its sweep " + std::to_string(t);
    } else if (has_lower_ && block.lower_received < t) {
      wants = "the lower rank's first row after its sweep " + std::to_string(t - 1);
    } else if (block.first_row_sent) {
      wants = "the upper rank to consume my first row";
    } else if (block.last_row_sent) {
      wants = "the lower rank to consume my last row";
    } else {
      wants = "nothing (a bug)";
    }
    text += " block " + std::to_string(j) + " (" + std::to_string(t) + ") waits for " + wants + ";";
  }
  return text;
}

}  // namespace heat
