// SPDX-License-Identifier: BSD-3-Clause
// A message whose pieces have elements of 1, 2, 4, 8 and 16 bytes, for the tests of split messages
// (docs/internals/plans.md, "Split messages"): the sender reads one block of 256 elements per
// element size, where rows are dense and columns and scattered lists sparse, so a node peer's
// message splits into runs that each hold several element sizes, of byte counts no larger size
// divides. The receiver takes it into one ghost block per size, cut along other boundaries (strided
// boxes and index lists with gaps), so that only the bytes of the message line the two sides up.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "ghostwire/layout.hpp"

namespace gwtest::mixed {

using ghostwire::Layout;

inline constexpr std::size_t sizes[] = {1, 2, 4, 8, 16};
inline constexpr std::size_t block_elements = 256;  // so that a byte tells every element of a block apart

// A row is at least a cache line (dense); a column is one element per line or more (sparse).
inline std::size_t width(std::size_t size) { return std::max<std::size_t>(16, 64 / size); }
inline std::size_t height(std::size_t size) { return block_elements / width(size); }

// One piece: elements of the block (send) or ghost block (receive) of one element size.
struct Piece {
  std::size_t size;
  Layout layout;
};

// The sender's pieces, element sizes in `order`: first a dense piece of every size (one run of
// part 0 mixing them all, each an odd number of elements), then sparse ones (part 1), then dense
// and sparse alternating, sizes in reverse. Rows, 2-d boxes and ascending index lists are dense;
// columns and scattered index lists are not.
inline std::vector<Piece> send_pieces(std::span<const std::size_t> order) {
  std::vector<Piece> pieces;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t s = order[k], w = width(s);
    if (k % 2 == 0) {
      pieces.push_back({s, Layout::contiguous(w + 1, w - 1)});  // row 1 but its first element
    } else {
      std::vector<std::size_t> row;  // row 2 but its last element
      for (std::size_t i = 0; i + 1 < w; ++i) row.push_back(2 * w + i);
      pieces.push_back({s, Layout::indices(row)});
    }
  }
  for (std::size_t s : order) {
    const std::size_t w = width(s), h = height(s);
    pieces.push_back({s, Layout::box(3, {h - 1}, {static_cast<std::ptrdiff_t>(w)})});  // column 3 but its last element
    pieces.push_back({s, Layout::indices({(h - 1) * w + 5, 7, w + 9})});               // no two in one line
  }
  for (std::size_t k = order.size(); k-- > 0;) {
    const std::size_t s = order[k], w = width(s), h = height(s);
    pieces.push_back({s, Layout::box(1, {w - 2, 2}, {1, static_cast<std::ptrdiff_t>(w)})});  // rows 0 and 1, cut short
    // The last column, upwards.
    pieces.push_back({s, Layout::box((h - 1) * w + w - 1, {h}, {-static_cast<std::ptrdiff_t>(w)})});
  }
  return pieces;
}

// Every element of `pieces` in message order: (element size, element index).
struct Element {
  std::size_t size, index;
};
inline std::vector<Element> elements_of(const std::vector<Piece>& pieces) {
  std::vector<Element> elements;
  for (const Piece& piece : pieces)
    piece.layout.for_each_run([&](std::size_t first, std::size_t count) {
      for (std::size_t i = 0; i < count; ++i) elements.push_back({piece.size, first + i});
    });
  return elements;
}

// The receiver's pieces for the same message: each stretch of equal element sizes cut in two, a
// third of it into every other element, the rest into an index list with a gap after every 5.
inline std::vector<Piece> receive_pieces(const std::vector<Piece>& sent) {
  std::vector<Piece> pieces;
  std::size_t used[17] = {};  // ghost elements taken so far, per size
  const std::vector<Element> message = elements_of(sent);
  for (std::size_t i = 0; i < message.size();) {
    const std::size_t s = message[i].size;
    std::size_t n = 0;
    while (i + n < message.size() && message[i + n].size == s) ++n;
    const std::size_t strided = n / 3;
    if (strided) pieces.push_back({s, Layout::box(used[s], {strided}, {2})});
    used[s] += 2 * strided;
    std::vector<std::size_t> rest;
    for (std::size_t k = 0; k < n - strided; ++k) rest.push_back(used[s] + k + k / 5);
    used[s] = rest.back() + 2;
    pieces.push_back({s, Layout::indices(rest)});
    i += n;
  }
  return pieces;
}

// Ghost elements the receiver's pieces need per size, gaps included.
inline std::size_t ghost_elements(const std::vector<Piece>& received, std::size_t size) {
  std::size_t end = 0;
  for (const Piece& piece : received)
    if (piece.size == size) end = std::max(end, piece.layout.end());
  return end + 1;  // and a gap after the last
}

// The value of element `index` of the `size`-byte block of `rank` in `round`, byte j holding bits
// 8j.. of the key (then of a second word): distinct within a block in every size (a byte holds
// index + 128 round mod 256), different from the round before, and from 4 bytes up from every
// other rank's; the two halves of a 16-byte element differ.
inline void encode(std::byte* to, std::size_t size, std::size_t index, int rank, int round) {
  const std::uint64_t key =
      index + 128 * static_cast<std::uint64_t>(round) + (std::uint64_t{1} << 16) * static_cast<std::uint64_t>(rank);
  const std::uint64_t words[2] = {key, ~key * 0x9E3779B97F4A7C15ULL};
  for (std::size_t j = 0; j < size; ++j) to[j] = static_cast<std::byte>(words[j / 8] >> (8 * (j % 8)));
}
inline bool holds(const std::byte* at, std::size_t size, std::size_t index, int rank, int round) {
  std::byte want[16];
  encode(want, size, index, rank, round);
  return std::memcmp(at, want, size) == 0;
}

}  // namespace gwtest::mixed
