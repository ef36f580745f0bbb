// SPDX-License-Identifier: BSD-3-Clause
// CopyProgram: a precompiled copy between two element sequences (a sender's layout and a
// receiver's, or a layout and a contiguous message buffer). Built once at commit; running it is a
// few tight loops over absolute addresses, so a halo copy costs little more than memcpy.
#pragma once

#include <cstddef>
#include <cstring>
#include <span>
#include <vector>

#include "ghostwire/layout.hpp"
#include "halo/memory_move.hpp"

namespace ghostwire::detail {

// Elements of one memory region, in message order.
struct Piece {
  std::byte* base = nullptr;
  std::size_t element_size = 1;
  const Layout* layout = nullptr;
};

class CopyProgram {
 public:
  CopyProgram() = default;
  // Copies the elements of `from` (in order) onto the elements of `to` (in order); both must hold
  // the same number of bytes. `streaming`: `to` is a buffer another core reads next (a node
  // peer's view of a staging buffer); dense 4- and 8-byte stores into it bypass this core's cache
  // (non-temporal), so they need not first take each line back from the reader's cache.
  static CopyProgram build(std::span<const Piece> from, std::span<const Piece> to, bool streaming = false);

  void run() const;
  // Plan::rebind moved a region: the addresses in its old range follow it.
  void follow(const MemoryMove& move);
  // How the copy is done: loops over equal steps, copies at listed addresses, and 8-byte words
  // gathered into dense lines (for tests and diagnostics).
  struct Shape {
    std::size_t strided_loops, scattered_copies, gathered_words;
  };
  Shape shape() const noexcept {
    std::size_t copies = 0, words = 0;
    for (const Scattered& op : scattered_) copies += op.count;
    for (const Gathered& op : gathered_) words += op.count;
    return {strided_.size(), copies, words};
  }

 private:
  struct Strided {  // `count` runs of `length` bytes, each step apart
    const std::byte* source;
    std::byte* destination;
    std::size_t length, count;
    std::ptrdiff_t source_step, destination_step;
  };
  struct Scattered {  // `count` runs of `length` bytes at listed addresses
    std::size_t length, first, count;
  };
  // `count` 8-byte elements from listed addresses into one dense run (an index list packed into a
  // buffer, or pushed into a peer's ghost cells). Each whole cache line of the destination is
  // assembled in registers and stored at once: a store into a line another core holds waits in
  // the store buffer for that line, and one store per line instead of eight lets eight times as
  // many lines be on their way (docs/plans.md, "One copy for sparse messages between node peers").
  struct Gathered {
    std::byte* destination;
    std::size_t first, count;  // gather_sources_[first, first + count)
  };
  static void gather(const Gathered& op, const std::byte* const* sources);
  static bool stream_gather(const Strided& op);
  // When the source is one contiguous range read in order (a staging buffer, usually in a node
  // peer's cache or in memory): strided copies out of it fetch its lines this far ahead, so the
  // misses overlap instead of being taken one at a time (docs/plans.md, "In place or staged").
  // Not for scattered copies, which it made slower.
  static constexpr std::size_t prefetch_distance = 2048;
  const std::byte* dense_source_begin_ = nullptr;
  const std::byte* dense_source_end_ = nullptr;
  std::vector<Strided> strided_;
  std::vector<Scattered> scattered_;
  std::vector<Gathered> gathered_;
  std::vector<const std::byte*> gather_sources_;
  std::vector<const std::byte*> sources_;
  std::vector<std::byte*> destinations_;
  bool streaming_ = false;
};

// The address of pieces that are one contiguous run of memory, else null (a message that can be read
// where it is, or received into its place).
const std::byte* single_run(std::span<const Piece> pieces);

}  // namespace ghostwire::detail
