// SPDX-License-Identifier: BSD-3-Clause
#include "copy_program.hpp"

#include <algorithm>
#include <cstdint>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "ghostwire/error.hpp"

namespace ghostwire::detail {
namespace {

struct Run {
  std::byte* address;
  std::size_t length;
};

// Runs of different regions never merge, even where their memory meets: Plan::rebind may move one
// region and not the other.
std::vector<Run> byte_runs(std::span<const Piece> pieces) {
  std::vector<Run> runs;
  const std::byte* last_base = nullptr;
  for (const Piece& piece : pieces) {
    const bool same_region = piece.base == last_base;
    last_base = piece.base;
    const std::size_t region_first_run = same_region ? 0 : runs.size();
    piece.layout->for_each_run([&](std::size_t first, std::size_t count) {
      std::byte* address = piece.base + first * piece.element_size;
      std::size_t length = count * piece.element_size;
      if (runs.size() > region_first_run && runs.back().address + runs.back().length == address)
        runs.back().length += length;
      else
        runs.push_back({address, length});
    });
  }
  return runs;
}

// Fixed-size copies compile to plain moves; the common halo element sizes get their own case.
inline void copy_run(std::byte* destination, const std::byte* source, std::size_t length) {
  switch (length) {
    case 4: std::memcpy(destination, source, 4); return;
    case 8: std::memcpy(destination, source, 8); return;
    case 16: std::memcpy(destination, source, 16); return;
    case 24: std::memcpy(destination, source, 24); return;
    case 32: std::memcpy(destination, source, 32); return;
    default: std::memcpy(destination, source, length); return;
  }
}

}  // namespace

const std::byte* single_run(std::span<const Piece> pieces) {
  if (pieces.size() != 1) return nullptr;
  const Piece& piece = pieces[0];
  std::size_t first = 0, end = 0;
  bool contiguous = true, any = false;
  piece.layout->for_each_run([&](std::size_t start, std::size_t count) {
    if (any && start != end) contiguous = false;
    if (!any) first = start;
    any = true;
    end = start + count;
  });
  return any && contiguous ? piece.base + first * piece.element_size : nullptr;
}

// Runs shorter than this are gathered word by word (CopyProgram::Gathered); longer ones are copied.
constexpr std::size_t gather_run_limit = 64;

namespace {

struct Move {
  const std::byte* source;
  std::byte* destination;
  std::size_t length;
};

// The two run lists zipped into (source, destination, length) moves; both must hold as many bytes.
std::vector<Move> zip_runs(const std::vector<Run>& sources, const std::vector<Run>& destinations) {
  std::vector<Move> moves;
  std::size_t s = 0, d = 0, s_used = 0, d_used = 0;
  while (s < sources.size() && d < destinations.size()) {
    const std::size_t length = std::min(sources[s].length - s_used, destinations[d].length - d_used);
    moves.push_back({sources[s].address + s_used, destinations[d].address + d_used, length});
    s_used += length;
    d_used += length;
    if (s_used == sources[s].length) ++s, s_used = 0;
    if (d_used == destinations[d].length) ++d, d_used = 0;
  }
  if (s != sources.size() || d != destinations.size()) {
    std::size_t from_bytes = 0, to_bytes = 0;
    for (const Run& run : sources) from_bytes += run.length;
    for (const Run& run : destinations) to_bytes += run.length;
    raise(Errc::internal, "CopyProgram: the two sides hold different numbers of bytes (" + std::to_string(from_bytes) +
                              " and " + std::to_string(to_bytes) + ")");
  }
  return moves;
}

}  // namespace

CopyProgram CopyProgram::build(std::span<const Piece> from, std::span<const Piece> to, bool streaming) {
  const std::vector<Run> sources = byte_runs(from);
  const std::vector<Move> moves = zip_runs(sources, byte_runs(to));
  CopyProgram program;
  program.streaming_ = streaming;
  if (sources.size() == 1 && !moves.empty()) {
    program.dense_source_begin_ = sources.front().address;
    program.dense_source_end_ = sources.front().address + sources.front().length;
  }
  std::size_t i = 0;
  while (i < moves.size()) {
    // A run of equally long moves with constant steps on both sides becomes one strided loop.
    std::size_t j = i + 1;
    if (j < moves.size() && moves[j].length == moves[i].length) {
      std::ptrdiff_t source_step = moves[j].source - moves[i].source;
      std::ptrdiff_t destination_step = moves[j].destination - moves[i].destination;
      while (j < moves.size() && moves[j].length == moves[i].length &&
             moves[j].source - moves[j - 1].source == source_step &&
             moves[j].destination - moves[j - 1].destination == destination_step)
        ++j;
      if (j - i >= 3) {
        program.strided_.push_back({moves[i].source, moves[i].destination, moves[i].length, j - i, source_step,
                                    destination_step});
        i = j;
        continue;
      }
    }
    // Short runs of whole 8-byte words from arbitrary addresses into one dense run (an unstructured
    // mesh's send list, whose neighbouring indices make runs of one, two, three... elements):
    // copied as words, whatever the element size, and stored a cache line at a time. A run of a
    // line or more is left to memcpy, which copies a grid's long row faster than words would.
    {
      std::size_t bytes = 0;
      j = i;
      while (j < moves.size() && moves[j].length % 8 == 0 && moves[j].length < gather_run_limit &&
             (j == i || moves[j].destination == moves[j - 1].destination + moves[j - 1].length))
        bytes += moves[j++].length;
      if (bytes >= 2 * 64) {
        program.gathered_.push_back({moves[i].destination, program.gather_sources_.size(), bytes / 8});
        for (std::size_t k = i; k < j; ++k) {
          for (std::size_t offset = 0; offset < moves[k].length; offset += 8)
            program.gather_sources_.push_back(moves[k].source + offset);
        }
        i = j;
        continue;
      }
    }
    // Otherwise collect equally long moves at arbitrary addresses (gathers of unstructured meshes).
    j = i + 1;
    while (j < moves.size() && moves[j].length == moves[i].length) ++j;
    program.scattered_.push_back({moves[i].length, program.sources_.size(), j - i});
    for (std::size_t k = i; k < j; ++k) {
      program.sources_.push_back(moves[k].source);
      program.destinations_.push_back(moves[k].destination);
    }
    i = j;
  }
  return program;
}

namespace {

// Eight words from listed addresses, stored as one 64-byte line (`destination` is line aligned):
// one vector store where the CPU has 512-bit vectors, else the widest stores the build allows.
void gather_lines_default(std::byte* destination, const std::byte* const* sources, std::size_t lines) {
  for (std::size_t l = 0; l < lines; ++l, destination += 64, sources += 8) {
    std::uint64_t words[8];
    for (std::size_t k = 0; k < 8; ++k) std::memcpy(&words[k], sources[k], 8);
    std::memcpy(destination, words, 64);
  }
}

#if defined(__x86_64__)
__attribute__((target("avx512f"))) void gather_lines_avx512(std::byte* destination, const std::byte* const* sources,
                                                            std::size_t lines) {
  auto word = [](const std::byte* source) {
    long long value;
    std::memcpy(&value, source, 8);
    return value;
  };
  for (std::size_t l = 0; l < lines; ++l, destination += 64, sources += 8) {
    __m512i line = _mm512_set_epi64(word(sources[7]), word(sources[6]), word(sources[5]), word(sources[4]),
                                    word(sources[3]), word(sources[2]), word(sources[1]), word(sources[0]));
    _mm512_store_si512(destination, line);
  }
}

const bool have_avx512 = (__builtin_cpu_init(), __builtin_cpu_supports("avx512f"));
#else
constexpr bool have_avx512 = false;
#endif

void gather_lines(std::byte* destination, const std::byte* const* sources, std::size_t lines) {
#if defined(__x86_64__)
  if (have_avx512) return gather_lines_avx512(destination, sources, lines);
#endif
  gather_lines_default(destination, sources, lines);
}

}  // namespace

void CopyProgram::gather(const Gathered& op, const std::byte* const* sources) {
  std::byte* destination = op.destination;
  std::size_t k = 0;
  // Up to the first line boundary, then whole lines, then the rest.
  while (k < op.count && reinterpret_cast<std::uintptr_t>(destination) % 64 != 0) {
    std::memcpy(destination, sources[k++], 8);
    destination += 8;
  }
  const std::size_t lines = (op.count - k) / 8;
  gather_lines(destination, sources + k, lines);
  k += 8 * lines;
  destination += 64 * lines;
  for (; k < op.count; ++k, destination += 8) std::memcpy(destination, sources[k], 8);
}

namespace {

// Prefetches the lines of [begin, end) in order, each once, staying `distance` bytes ahead of
// the position the copy has reached.
class LinePrefetcher {
 public:
  LinePrefetcher(const std::byte* begin, const std::byte* end, std::size_t distance) noexcept
      : cursor_(reinterpret_cast<std::uintptr_t>(begin) & ~std::uintptr_t{63}),
        end_(reinterpret_cast<std::uintptr_t>(end)),
        distance_(distance) {}
  void reached(const std::byte* position) noexcept {
    const std::uintptr_t stop = std::min(reinterpret_cast<std::uintptr_t>(position) + distance_, end_);
    for (; cursor_ < stop; cursor_ += 64) __builtin_prefetch(reinterpret_cast<const void*>(cursor_));
  }

 private:
  std::uintptr_t cursor_, end_;
  std::size_t distance_;
};

// A store that goes to memory without reading the line into this core's cache first.
template <class Word>
inline void stream_word(std::byte* destination, const std::byte* source) {
  Word value;
  std::memcpy(&value, source, sizeof value);
#if defined(__x86_64__)
  if constexpr (sizeof(Word) == 8) {
    __builtin_ia32_movnti64(reinterpret_cast<long long*>(destination), static_cast<long long>(value));
  } else {
    __builtin_ia32_movnti(reinterpret_cast<int*>(destination), static_cast<int>(value));
  }
#else
  std::memcpy(destination, &value, sizeof value);
#endif
}

}  // namespace

// Gathers into a dense buffer with non-temporal stores; false if `op` is not such a gather of 4- or
// 8-byte elements (aligned ones: movnti needs no alignment, but a word across two lines would
// split), and the caller copies as usual.
bool CopyProgram::stream_gather(const Strided& op) {
  if (op.destination_step != static_cast<std::ptrdiff_t>(op.length) || (op.length != 8 && op.length != 4) ||
      reinterpret_cast<std::uintptr_t>(op.destination) % op.length != 0)
    return false;
  const std::byte* source = op.source;
  std::byte* destination = op.destination;
  for (std::size_t k = 0; k < op.count; ++k, source += op.source_step, destination += op.length) {
    if (op.length == 8) stream_word<std::uint64_t>(destination, source);
    else stream_word<std::uint32_t>(destination, source);
  }
  return true;
}

void CopyProgram::run() const {
  bool streamed = false;
  LinePrefetcher ahead(dense_source_begin_, dense_source_end_, prefetch_distance);
  for (const Strided& op : strided_) {
    ahead.reached(op.source);
    if (streaming_ && stream_gather(op)) {
      streamed = true;
      continue;
    }
    const std::byte* source = op.source;
    std::byte* destination = op.destination;
    if (op.length == 8) {
      for (std::size_t k = 0; k < op.count; ++k, source += op.source_step, destination += op.destination_step)
        std::memcpy(destination, source, 8);
    } else {
      for (std::size_t k = 0; k < op.count; ++k, source += op.source_step, destination += op.destination_step)
        copy_run(destination, source, op.length);
    }
  }
  // Non-temporal stores are weakly ordered: they must be visible before the release store that
  // announces the message.
#if defined(__x86_64__)
  if (streamed) __builtin_ia32_sfence();
#endif
  for (const Gathered& op : gathered_) gather(op, gather_sources_.data() + op.first);
  for (const Scattered& op : scattered_) {
    const std::byte* const* source = sources_.data() + op.first;
    std::byte* const* destination = destinations_.data() + op.first;
    if (op.length == 8) {
      for (std::size_t k = 0; k < op.count; ++k) std::memcpy(destination[k], source[k], 8);
    } else {
      for (std::size_t k = 0; k < op.count; ++k) copy_run(destination[k], source[k], op.length);
    }
  }
}

void CopyProgram::follow(const MemoryMove& move) {
  for (Strided& op : strided_) {
    move.follow(op.source);
    move.follow(op.destination);
  }
  for (const std::byte*& source : sources_) move.follow(source);
  for (std::byte*& destination : destinations_) move.follow(destination);
  for (const std::byte*& source : gather_sources_) move.follow(source);
  for (Gathered& op : gathered_) move.follow(op.destination);
  // The dense source range moves as a whole (it lies in one region, or in staging, which never moves).
  if (move.contains(dense_source_begin_)) {
    dense_source_begin_ += move.delta;
    dense_source_end_ += move.delta;  // one past the end: it moves with the beginning
  }
}

}  // namespace ghostwire::detail
