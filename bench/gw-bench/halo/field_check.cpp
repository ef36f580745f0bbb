// SPDX-License-Identifier: BSD-3-Clause
#include "field_check.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "../message_stamp.hpp"

namespace gwbench::halo {

FieldCheck::FieldCheck(const HaloCase& c) : case_(c), global_(static_cast<double>(c.global_elements)) {
  for (std::size_t i = 0; i < c.elements;) {
    if (c.ghost[i]) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < c.elements && !c.ghost[end]) ++end;
    owned_runs_.emplace_back(i, end - i);
    i = end;
  }
  std::vector<std::uint8_t> received(c.elements, 0);
  for (const Receive& m : c.receives)
    m.layout.for_each_run([&](std::size_t start, std::size_t count) {
      for (std::size_t i = start; i < start + count; ++i) received[i] = 1;
    });
  constexpr std::size_t per_line = 64 / sizeof(double);
  for (std::size_t i = 0; i < c.elements;) {
    if (!received[i]) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < c.elements && received[end]) ++end;
    received_runs_.emplace_back(i, end - i);
    for (std::size_t k = i; k < end; k = (k / per_line + 1) * per_line) touched_.push_back(k);
    i = end;
  }
}

std::uint64_t FieldCheck::epoch_limit() const {
  return static_cast<std::uint64_t>(std::ldexp(1.0, 52) / std::max(1.0, global_)) - 1;
}

void FieldCheck::fill(double* field, std::uint64_t epoch) const {
  const double shift = static_cast<double>(epoch) * global_;
  for (std::size_t i = 0; i < case_.elements; ++i)
    field[i] = case_.ghost[i] ? sentinel : static_cast<double>(case_.ids[i]) + shift;
}

std::string FieldCheck::explain(double value) const {
  if (value == sentinel) return "the sentinel (never written)";
  if (value < 0 || std::floor(value) != value) return "a value no implementation writes";
  double epoch = std::floor(value / global_);
  std::ostringstream text;
  text.precision(17);
  text << "the value of element " << (value - epoch * global_) << " of exchange " << epoch;
  return text.str();
}

void FieldCheck::check(const double* field, std::uint64_t epoch, const std::string& impl,
                       Unfilled unfilled) const {
  const double shift = static_cast<double>(epoch) * global_;
  std::size_t wrong = 0, first = 0;
  double expected_first = 0;
  for (std::size_t i = 0; i < case_.elements; ++i) {
    if (unfilled == Unfilled::may_change && case_.ids[i] < 0) continue;
    double expected = case_.ids[i] < 0 ? sentinel : static_cast<double>(case_.ids[i]) + shift;
    if (field[i] != expected) {
      if (wrong++ == 0) first = i, expected_first = expected;
    }
  }
  if (wrong == 0) return;
  std::ostringstream text;
  text.precision(17);
  text << impl << ", case " << case_.name << ", exchange " << epoch << ": " << wrong << " of " << case_.elements
       << " elements are wrong; the first is element " << first << " (" << (case_.ghost[first] ? "ghost" : "owned")
       << "), which should hold " << explain(expected_first) << " but holds " << explain(field[first]);
  throw VerificationError(text.str());
}

void FieldCheck::received_mismatch(const double* field, std::uint64_t epoch, const std::string& impl,
                                   std::size_t element) const {
  std::size_t wrong = 0;
  for (auto [start, count] : received_runs_)
    for (std::size_t i = start; i < start + count; ++i)
      wrong += field[i] != static_cast<double>(case_.ids[i]) + static_cast<double>(epoch) * global_;
  std::ostringstream text;
  text.precision(17);
  text << impl << ", case " << case_.name << ", exchange " << epoch << ": " << wrong
       << " received ghost element(s) are wrong; the first is element " << element << ", which should hold "
       << explain(static_cast<double>(case_.ids[element]) + static_cast<double>(epoch) * global_) << " but holds "
       << explain(field[element]);
  throw VerificationError(text.str());
}

}  // namespace gwbench::halo
