#include "field_check.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "../message_stamp.hpp"

namespace gwbench::halo {
namespace {

// The first and last element of a message.
std::pair<std::size_t, std::size_t> ends_of(const ghostwire::Layout& layout) {
  std::size_t first = 0, last = 0;
  bool any = false;
  layout.for_each_run([&](std::size_t start, std::size_t count) {
    if (!any) first = start;
    any = true;
    last = start + count - 1;
  });
  return {first, last};
}

}  // namespace

FieldCheck::FieldCheck(const HaloCase& c) : case_(c), global_(static_cast<double>(c.global_elements)) {
  for (const Message& m : c.sends) {
    if (m.layout.count() == 0) continue;
    auto [first, last] = ends_of(m.layout);
    for (std::size_t i : {first, last})
      if (std::find(stamp_index_.begin(), stamp_index_.end(), i) == stamp_index_.end()) {
        stamp_index_.push_back(i);
        stamp_id_.push_back(static_cast<double>(c.ids[i]));
      }
  }
  for (const Receive& m : c.receives) {
    if (m.layout.count() == 0) continue;
    auto [first, last] = ends_of(m.layout);
    for (std::size_t i : {first, last}) {
      check_index_.push_back(i);
      check_id_.push_back(static_cast<double>(c.ids[i]));
    }
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

void FieldCheck::check(const double* field, std::uint64_t epoch, const std::string& impl) const {
  const double shift = static_cast<double>(epoch) * global_;
  std::size_t wrong = 0, first = 0;
  double expected_first = 0;
  for (std::size_t i = 0; i < case_.elements; ++i) {
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

void FieldCheck::ends_mismatch(const double* field, std::uint64_t epoch, const std::string& impl, std::size_t k) const {
  std::ostringstream text;
  text.precision(17);
  std::size_t i = check_index_[k];
  text << impl << ", case " << case_.name << ", exchange " << epoch << ": ghost element " << i
       << " (an end of a received message) should hold "
       << explain(check_id_[k] + static_cast<double>(epoch) * global_) << " but holds " << explain(field[i]);
  throw VerificationError(text.str());
}

}  // namespace gwbench::halo
