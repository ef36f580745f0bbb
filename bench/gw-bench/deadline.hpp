// SPDX-License-Identifier: BSD-3-Clause
// A run's time budget (--deadline SECONDS, which bench/run_suite.py sets to the step's share of the
// suite's budget). It is shared out over the points still to measure (sizes, cases), equally, each
// time one begins, so a point that finished early leaves more to the later ones and one that ran
// long leaves less. A point's repetitions stop when the next would end after its share; a
// repetition always runs every implementation, so what is cut are whole pairs, never half of one.
// Below kept_repetitions (bench/goals.py MIN_PAIRS: fewer pairs give no verdict) a point goes on
// into the later points' time, as long as the whole deadline holds the next repetition. A point
// begins with at least one repetition unless the whole budget is gone (then it is left out). The
// decisions are pure functions of the clock here; callers take rank 0's and broadcast it, so every
// rank stops at the same repetition.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace gwbench {

class Deadline {
 public:
  using clock = std::chrono::steady_clock;
  // bench/goals.py MIN_PAIRS: the fewest paired repetitions a goal's verdict is given on.
  static constexpr int kept_repetitions = 5;

  Deadline() = default;  // no deadline
  Deadline(double seconds, clock::time_point start) : seconds_(seconds), start_(start) {}

  bool set() const noexcept { return seconds_ > 0; }
  double seconds() const noexcept { return seconds_; }

  double left(clock::time_point now) const {
    return seconds_ - std::chrono::duration<double>(now - start_).count();
  }

  // A point begins, `points_left` of them (this one included): its end, now plus its share of
  // what is left. False: nothing is left, the point is left out.
  bool begin_point(int points_left, clock::time_point now) {
    if (!set()) return true;
    const double left_now = left(now);
    if (left_now <= 0) return false;
    point_end_ = now + std::chrono::duration_cast<clock::duration>(
                           std::chrono::duration<double>(left_now / (points_left > 0 ? points_left : 1)));
    return true;
  }

  // After `done` of `asked` repetitions of the current point, the last ending at `now`, the
  // repetitions having taken `mean_repetition` seconds on average: whether one more ends within the
  // point's share (below kept_repetitions: within the whole deadline).
  bool another_fits(double mean_repetition, clock::time_point now, int done, int asked) const {
    if (!set()) return true;
    const auto end = now + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(mean_repetition));
    if (done < std::min(kept_repetitions, asked))
      return end <= start_ + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds_));
    return end <= point_end_;
  }

  // What was cut, for the closing line: "2d-2048-h2 6 of 11 repetitions".
  void note_cut(const std::string& point, int done, int asked) {
    cuts_.push_back(point + " " + std::to_string(done) + " of " + std::to_string(asked) + " repetitions");
  }
  void note_skipped(const std::string& point) { skipped_.push_back(point); }

  // "# budget: ..." (what bench/run_suite.py records with the step), or nothing where nothing was cut.
  void print_cuts(std::FILE* out, const char* program) const {
    if (cuts_.empty() && skipped_.empty()) return;
    std::string text;
    for (const std::string& cut : cuts_) text += (text.empty() ? "" : ", ") + cut;
    if (!skipped_.empty()) {
      text += std::string(text.empty() ? "" : "; ") + "left out for lack of time:";
      for (const std::string& point : skipped_) text += " " + point;
    }
    std::fprintf(out, "# budget: %s --deadline %.1f s cut this run short: %s\n", program, seconds_, text.c_str());
  }

 private:
  double seconds_ = 0;
  clock::time_point start_{};
  clock::time_point point_end_ = clock::time_point::max();
  std::vector<std::string> cuts_, skipped_;
};

}  // namespace gwbench
