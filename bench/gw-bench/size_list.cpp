// SPDX-License-Identifier: BSD-3-Clause
#include "size_list.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "usage_error.hpp"

namespace gwbench {
namespace {

constexpr const char* size_syntax = "expected a byte count like 8, 64K, 4M or a power-of-two range like 8-4M";

std::size_t parse_one_size(std::string_view item, std::string_view whole) {
  auto bad = [&](const std::string& why) {
    return UsageError("--sizes '" + std::string(whole) + "': '" + std::string(item) + "' " + why);
  };
  std::size_t value = 0;
  auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
  if (error != std::errc() || end == item.data()) throw bad(std::string("is not a size (") + size_syntax + ")");
  std::string_view unit(end, static_cast<std::size_t>(item.data() + item.size() - end));
  std::string lower;
  for (char c : unit) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  unsigned shift = 0;
  if (lower.empty() || lower == "b") shift = 0;
  else if (lower == "k" || lower == "kib" || lower == "kb") shift = 10;
  else if (lower == "m" || lower == "mib" || lower == "mb") shift = 20;
  else if (lower == "g" || lower == "gib" || lower == "gb") shift = 30;
  else throw bad("has an unknown unit '" + std::string(unit) + "' (B, K, M or G, all binary)");
  if (value == 0) throw bad("is zero; messages must have at least 1 byte");
  if (value > (largest_message >> shift)) throw bad("is larger than the limit of 1 GiB per message");
  return value << shift;
}

}  // namespace

std::vector<std::size_t> parse_size_list(std::string_view text) {
  if (text.empty()) throw UsageError(std::string("--sizes is empty: ") + size_syntax);
  std::vector<std::size_t> sizes;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(start, comma - start);
    if (item.empty()) throw UsageError("--sizes '" + std::string(text) + "': empty item (two commas in a row?)");
    if (std::size_t dash = item.find('-'); dash != std::string_view::npos) {
      std::size_t low = parse_one_size(item.substr(0, dash), text);
      std::size_t high = parse_one_size(item.substr(dash + 1), text);
      if (low > high)
        throw UsageError("--sizes '" + std::string(text) + "': range '" + std::string(item) +
                         "' goes downwards; write the smaller size first");
      for (std::size_t s = low; s <= high; s *= 2) sizes.push_back(s);
    } else {
      sizes.push_back(parse_one_size(item, text));
    }
    start = comma + 1;
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

std::vector<std::size_t> default_sizes() { return parse_size_list("8-4M"); }

std::string format_size(std::size_t bytes) {
  if (bytes >= (std::size_t{1} << 30) && bytes % (std::size_t{1} << 30) == 0)
    return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}

}  // namespace gwbench
