// SPDX-License-Identifier: BSD-3-Clause
// Verification of a halo exchange, the same for every implementation, so a broken or lazy one
// fails loudly instead of looking fast, and the application's step around it, so that no
// implementation is flattered by data that stays put in some cache.
//
// Every value encodes the global id of its element and an epoch: id + epoch * global_elements, so a
// ghost cell shows whose value it holds and from which exchange. A timed step e runs as an
// application's step does:
//
//  - advance_owned (untimed): every owned element moves from epoch e - 1 to e (one add each: a
//    cheap stand-in for the compute step). The lines a neighbour reads change every exchange, so a
//    neighbour that reads them in place must fetch them anew, and nothing an implementation keeps
//    of them in some cache stays valid: as in an application, whose stencil rewrites its cells;
//  - the exchange (timed);
//  - touch_received (timed): one load per cache line of received ghost cells, the least an
//    application does with them. Ghosts another core wrote (a push, a put) move to this core here;
//  - check_received (untimed): every ghost element a message fills must hold its owner's value of
//    epoch e. A ghost left from an earlier exchange (stale), put in the wrong place, or not yet
//    landed fails at once.
//
// The untimed parts cost in proportion to the whole array (milliseconds for a 128^3 block), the
// timed ones to the halo; a barrier before each timed part keeps a rank's imbalance in the
// untimed ones out of its neighbours' exchange times (halo_measure.cpp).
//
// Full checks (after every timed repetition, and around every exchange with --verify every): fill
// gives owned elements a fresh epoch and ghost elements a sentinel; after the exchange every
// element is checked: owned unchanged, ghosts equal to the neighbour's value, unfilled ghosts
// untouched.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "halo_case.hpp"

namespace gwbench::halo {

class FieldCheck {
 public:
  static constexpr double sentinel = -1.0;

  explicit FieldCheck(const HaloCase& c);

  // Owned elements get epoch `epoch`, ghost elements the sentinel.
  void fill(double* field, std::uint64_t epoch) const;
  // Ghosts no message of the case fills stay as fill() left them, except for an implementation
  // that fills every ghost cell whatever the case asks (ga: GA_Update_ghosts wraps around the
  // domain's boundary and fills the corners).
  enum class Unfilled { untouched, may_change };
  // Throws VerificationError naming the implementation, the element and what it held instead.
  void check(const double* field, std::uint64_t epoch, const std::string& impl,
             Unfilled unfilled = Unfilled::untouched) const;

  // Every owned element from epoch e - 1 to epoch e. Adds of whole numbers below 2^53 are exact,
  // so the result is exactly what fill(field, e) writes there.
  void advance_owned(double* field) const {
    for (auto [start, count] : owned_runs_) {
      double* run = field + start;
      for (std::size_t i = 0; i < count; ++i) run[i] += global_;
    }
  }
  // Loads one word of every cache line that holds received ghost elements (a field starts on a
  // page, so element i is on line i / 8).
  void touch_received(const double* field) {
    double sums[4] = {0, 0, 0, 0};
    const std::size_t n = touched_.size();
    std::size_t k = 0;
    for (; k + 4 <= n; k += 4)
      for (std::size_t j = 0; j < 4; ++j) sums[j] += field[touched_[k + j]];
    for (; k < n; ++k) sums[0] += field[touched_[k]];
    sink_ = sink_ + sums[0] + sums[1] + sums[2] + sums[3];
  }
  // Every ghost element that a message fills holds its owner's value of `epoch`.
  void check_received(const double* field, std::uint64_t epoch, const std::string& impl) const {
    const double shift = static_cast<double>(epoch) * global_;
    for (auto [start, count] : received_runs_)
      for (std::size_t i = start; i < start + count; ++i)
        if (field[i] != static_cast<double>(case_.ids[i]) + shift) [[unlikely]]
          received_mismatch(field, epoch, impl, i);
  }
  // The largest epoch whose values are still exact doubles.
  std::uint64_t epoch_limit() const;

 private:
  [[noreturn]] void received_mismatch(const double* field, std::uint64_t epoch, const std::string& impl,
                                      std::size_t element) const;
  std::string explain(double value) const;

  const HaloCase& case_;
  double global_;
  std::vector<std::pair<std::size_t, std::size_t>> owned_runs_;     // (first element, count)
  std::vector<std::pair<std::size_t, std::size_t>> received_runs_;  // ghost elements messages fill
  std::vector<std::size_t> touched_;  // the first received element of each line
  volatile double sink_ = 0;          // keeps the loads of touch_received
};

}  // namespace gwbench::halo
