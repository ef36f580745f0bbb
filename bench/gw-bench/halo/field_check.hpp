// Verification of a halo exchange, the same for every implementation, so a broken or lazy one
// fails loudly instead of looking fast.
//
// Every value encodes the global id of its element and an epoch: id + epoch * global_elements, so a
// ghost cell shows whose value it holds and from which exchange. Two levels:
//
//  - ends (every timed exchange): before exchange e each rank writes epoch e into the first and
//    last element of every message it sends; afterwards it checks the first and last element of
//    every message it received. Cheap (two stores and two loads per message), and an
//    implementation that skips or reorders an exchange fails at once.
//  - full (after every timed repetition, and after every exchange with --verify every): all owned
//    elements get a fresh epoch, all ghost elements a sentinel; after the exchange every element is
//    checked: owned unchanged, ghosts equal to the neighbour's value, unfilled ghosts untouched.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "halo_case.hpp"

namespace gwbench::halo {

class FieldCheck {
 public:
  static constexpr double sentinel = -1.0;

  explicit FieldCheck(const HaloCase& c);

  void fill(double* field, std::uint64_t epoch) const;
  // Throws VerificationError naming the implementation, the element and what it held instead.
  void check(const double* field, std::uint64_t epoch, const std::string& impl) const;

  void stamp_ends(double* field, std::uint64_t epoch) const {
    const double shift = static_cast<double>(epoch) * global_;
    for (std::size_t k = 0; k < stamp_index_.size(); ++k) field[stamp_index_[k]] = stamp_id_[k] + shift;
  }
  void check_ends(const double* field, std::uint64_t epoch, const std::string& impl) const {
    const double shift = static_cast<double>(epoch) * global_;
    for (std::size_t k = 0; k < check_index_.size(); ++k)
      if (field[check_index_[k]] != check_id_[k] + shift) [[unlikely]]
        ends_mismatch(field, epoch, impl, k);
  }
  // The largest epoch whose values are still exact doubles.
  std::uint64_t epoch_limit() const;

 private:
  [[noreturn]] void ends_mismatch(const double* field, std::uint64_t epoch, const std::string& impl, std::size_t k) const;
  std::string explain(double value) const;

  const HaloCase& case_;
  double global_;
  std::vector<std::size_t> stamp_index_, check_index_;
  std::vector<double> stamp_id_, check_id_;
};

}  // namespace gwbench::halo
