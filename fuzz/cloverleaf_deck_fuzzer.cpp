// SPDX-License-Identifier: BSD-3-Clause
// The CloverLeaf input deck (clover.in): parse_deck either returns a deck or throws UsageError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "deck.hpp"
#include "usage_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte is the job's rank count (tiles_per_problem is divided among the ranks).
  const int ranks = 1 + data[0] % 16;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    const cloverleaf::Deck deck = cloverleaf::parse_deck(text, "fuzz.in", ranks);
    // What the rest of the app relies on: states numbered 1.. in order, a positive mesh.
    for (std::size_t i = 0; i < deck.states.size(); ++i)
      if (deck.states[i].number != static_cast<int>(i) + 1) __builtin_trap();
    if (deck.x_cells < 1 || deck.y_cells < 1) __builtin_trap();
  } catch (const cloverleaf::UsageError&) {
  }
  return 0;
}
