// SPDX-License-Identifier: BSD-3-Clause
#include "reverse_check.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "../message_stamp.hpp"
#include "../mpi_call.hpp"

namespace gwbench::halo {
namespace {

std::vector<std::pair<std::size_t, std::size_t>> runs_of(const std::vector<std::uint8_t>& marked) {
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  for (std::size_t i = 0; i < marked.size();) {
    if (!marked[i]) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < marked.size() && marked[end]) ++end;
    runs.emplace_back(i, end - i);
    i = end;
  }
  return runs;
}

}  // namespace

ReverseCheck::ReverseCheck(const HaloCase& c, int rank, int ranks)
    : case_(c),
      owned_(c),
      rank_(rank),
      ranks_(ranks),
      global_(static_cast<double>(c.global_elements)),
      ghost_step_(static_cast<double>(ranks) * static_cast<double>(c.global_elements)) {
  // Per owned element: how many ghosts mirror it (one per forward message that sends it), and
  // their ranks' sum of 1 + r.
  std::vector<long> mirrors(c.elements, 0);
  std::vector<double> offsets(c.elements, 0);
  for (const Message& m : c.sends)
    m.layout.for_each_run([&](std::size_t start, std::size_t count) {
      for (std::size_t i = start; i < start + count; ++i) ++mirrors[i], offsets[i] += 1.0 + m.neighbour;
    });
  long most = 0;
  reduced_slot_.assign(c.elements, -1);
  constexpr std::size_t per_line = 64 / sizeof(double);
  for (std::size_t i = 0; i < c.elements; ++i) {
    if (mirrors[i] == 0) continue;
    reduced_slot_[i] = static_cast<std::int32_t>(reduced_.size());
    reduced_.push_back({i, static_cast<double>(c.ids[i]), 1.0 + static_cast<double>(mirrors[i]) * ranks_, offsets[i]});
    if (touched_.empty() || touched_.back() / per_line != i / per_line) touched_.push_back(i);
    most = std::max(most, mirrors[i]);
  }
  std::vector<std::uint8_t> received(c.elements, 0);
  for (const Receive& m : c.receives)
    m.layout.for_each_run([&](std::size_t start, std::size_t count) { std::fill_n(received.begin() + start, count, 1); });
  ghost_runs_ = runs_of(received);

  mpi_call(MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  // The largest sum of step e is below (1 + k * S) * (e + 2) * M; it must stay below 2^52.
  double steps = std::ldexp(1.0, 52) / ((1.0 + static_cast<double>(most) * ranks_) * std::max(1.0, global_));
  epoch_limit_ = steps > 3 ? static_cast<std::uint64_t>(steps) - 2 : 1;
}

double ReverseCheck::expected(std::size_t i, std::uint64_t epoch) const {
  const double step = static_cast<double>(epoch) * global_;
  if (case_.ghost[i]) return case_.ids[i] < 0 ? FieldCheck::sentinel : 1 + rank_ + ranks_ * (static_cast<double>(case_.ids[i]) + step);
  if (std::int32_t slot = reduced_slot_[i]; slot >= 0) {
    const Reduced& r = reduced_[static_cast<std::size_t>(slot)];
    return r.factor * (r.id + step) + r.offset;
  }
  return static_cast<double>(case_.ids[i]) + step;
}

void ReverseCheck::fill(double* field, std::uint64_t epoch) const {
  const double step = static_cast<double>(epoch) * global_;
  for (std::size_t i = 0; i < case_.elements; ++i)
    field[i] = case_.ghost[i] ? expected(i, epoch) : static_cast<double>(case_.ids[i]) + step;
}

// What a wrong element's difference from its expected value would be, if it were one mistake.
std::string ReverseCheck::explain(std::size_t i, double held, std::uint64_t epoch) const {
  std::ostringstream text;
  text.precision(17);
  const double want = expected(i, epoch), difference = held - want;
  text << "should hold " << want << " but holds " << held;
  if (case_.ghost[i] || reduced_slot_[i] < 0) return text.str() + (case_.ghost[i] ? " (a ghost the exchange must leave alone)" : "");
  const double own = static_cast<double>(case_.ids[i]) + static_cast<double>(epoch) * global_;
  if (difference == -own) return text.str() + ": its own value is missing (replaced instead of added to?)";
  const double size = std::fabs(difference) - 1;
  if (size < 0 || std::floor(size) != size) return text.str();
  const double from = std::fmod(size, ranks_), value = (size - from) / ranks_;
  const double element = std::fmod(value, std::max(1.0, global_)), step = (value - element) / std::max(1.0, global_);
  text << ": as if one contribution were " << (difference < 0 ? "missing" : "extra") << " (rank " << from
       << "'s ghost of element " << element << " of step " << step << ")";
  return text.str();
}

void ReverseCheck::check(const double* field, std::uint64_t epoch, const std::string& impl) const {
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < case_.elements; ++i)
    if (field[i] != expected(i, epoch) && wrong++ == 0) first = i;
  if (wrong == 0) return;
  std::ostringstream text;
  text << impl << ", case " << case_.name << ", reverse exchange " << epoch << ": " << wrong << " of "
       << case_.elements << " elements are wrong; the first is element " << first << " ("
       << (case_.ghost[first] ? "ghost" : "owned") << "), which " << explain(first, field[first], epoch);
  throw VerificationError(text.str());
}

void ReverseCheck::reduced_mismatch(const double* field, std::uint64_t epoch, const std::string& impl) const {
  std::size_t wrong = 0, first = 0;
  for (const Reduced& r : reduced_)
    if (field[r.element] != expected(r.element, epoch) && wrong++ == 0) first = r.element;
  std::ostringstream text;
  text << impl << ", case " << case_.name << ", reverse exchange " << epoch << ": " << wrong << " of "
       << reduced_.size() << " summed owned element(s) are wrong; the first is element " << first << ", which "
       << explain(first, field[first], epoch);
  throw VerificationError(text.str());
}

}  // namespace gwbench::halo
