// SPDX-License-Identifier: BSD-3-Clause
// Verification of a reverse exchange with sum (--reverse), the same for every implementation, and
// the application's step around it: the mirror of field_check.hpp.
//
// Values are whole numbers, so every sum is exact whatever the order, and each contribution says
// where it comes from. At step e an owned element with global id i holds i + e * M (M: the case's
// global_elements, as forward); a ghost of element i on rank r holds 1 + r + S * (i + e * M) (S:
// ranks), never 0, and different for every (rank, element, step). After the reverse sum an owned
// element that k ghosts mirror (on ranks r_1..r_k, one per forward message that sends it) must hold
//   (i + e * M) + sum_j (1 + r_j + S * (i + e * M)) = (1 + k * S) * (i + e * M) + sum_j (1 + r_j),
// so a contribution lost, doubled or added to another element, or an owned value replaced instead
// of added to, changes it; a wrong element's difference is decoded into the contribution it is.
//
// A timed step e: advance (untimed) moves every owned element to step e (the sums of step e - 1
// are replaced) and every ghost sent back to step e (one add each: the deposit of an application
// that assembles); then the reverse exchange and touch_reduced (timed), a load per cache line of
// owned elements that received sums; then check_reduced (untimed) of those elements. Full checks
// (fill, check) cover every element: owned, sums, ghosts unchanged, unfilled ghosts untouched.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "field_check.hpp"
#include "halo_case.hpp"

namespace gwbench::halo {

class ReverseCheck {
 public:
  // Collective over MPI_COMM_WORLD (the epoch limit depends on every rank's most mirrored element).
  ReverseCheck(const HaloCase& c, int rank, int ranks);

  // Every element as step `epoch` has it before the exchange; unfilled ghosts the sentinel.
  void fill(double* field, std::uint64_t epoch) const;
  // Throws VerificationError naming the implementation, the element and what is wrong with it.
  void check(const double* field, std::uint64_t epoch, const std::string& impl) const;

  // From step `epoch` - 1 (after its reverse exchange) to step `epoch`.
  void advance(double* field, std::uint64_t epoch) const {
    owned_.advance_owned(field);  // every owned element: one add, as forward
    const double step = static_cast<double>(epoch) * global_;
    for (const Reduced& r : reduced_) field[r.element] = r.id + step;  // the sums replaced
    for (auto [start, count] : ghost_runs_)
      for (std::size_t i = start; i < start + count; ++i) field[i] += ghost_step_;
  }
  // Loads one word of every cache line holding owned elements that receive sums.
  void touch_reduced(const double* field) {
    double sum = 0;
    for (std::size_t i : touched_) sum += field[i];
    sink_ = sink_ + sum;
  }
  // Every owned element that receives sums holds the expected one.
  void check_reduced(const double* field, std::uint64_t epoch, const std::string& impl) const {
    const double step = static_cast<double>(epoch) * global_;
    for (const Reduced& r : reduced_)
      if (field[r.element] != r.factor * (r.id + step) + r.offset) [[unlikely]]
        reduced_mismatch(field, epoch, impl);
  }
  // The largest epoch whose sums are still exact doubles (the same on every rank).
  std::uint64_t epoch_limit() const { return epoch_limit_; }

 private:
  // An owned element that ghosts mirror: id, 1 + k * S and sum_j (1 + r_j) (see above).
  struct Reduced {
    std::size_t element;
    double id, factor, offset;
  };
  double expected(std::size_t element, std::uint64_t epoch) const;
  std::string explain(std::size_t element, double held, std::uint64_t epoch) const;
  [[noreturn]] void reduced_mismatch(const double* field, std::uint64_t epoch, const std::string& impl) const;

  const HaloCase& case_;
  FieldCheck owned_;  // its advance_owned moves the owned elements
  double rank_, ranks_, global_, ghost_step_;
  std::vector<Reduced> reduced_;                                 // by element
  std::vector<std::int32_t> reduced_slot_;                       // per element: index in reduced_ or -1
  std::vector<std::pair<std::size_t, std::size_t>> ghost_runs_;  // ghosts sent back: (first, count)
  std::vector<std::size_t> touched_;                             // first reduced element of each line
  std::uint64_t epoch_limit_ = 0;
  volatile double sink_ = 0;
};

}  // namespace gwbench::halo
