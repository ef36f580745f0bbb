// SPDX-License-Identifier: BSD-3-Clause
// Global access to grids and arrays: element addresses and the one-sided copy engine, which cuts
// a range by owner and moves each owner's rows in one batch (docs/dist.md, "Global access").
#include <map>
#include <sstream>
#include <vector>

#include "ghostwire/dist/copy.hpp"
#include "ghostwire/error.hpp"
#include "grid_state.hpp"
#include "runtime/world_state.hpp"

namespace ghostwire::detail {
namespace {

std::string describe_box(int n, const Index* low, const Index* extent) {
  std::ostringstream text;
  for (int d = 0; d < n; ++d) text << (d ? " x " : "") << "[" << low[d] << ", " << low[d] + extent[d] << ")";
  return text.str();
}

struct Stretch {  // cells [start, end) of one dimension owned by one unit
  int unit;
  Index start, end;
};

}  // namespace

void check_array_pattern(const PatternCore& pattern, const World& world) {
  if (pattern.team_size() != world.size())
    raise(Errc::invalid_argument, "Array: the pattern's team has " + std::to_string(pattern.team_size()) +
                                      " ranks but the world has " + std::to_string(world.size()) +
                                      "; expected a team of world.size() ranks");
  // An array is read and written anywhere, so it needs one-sided access to every node: refused
  // here, on every rank together (the World found the same answer everywhere), not at the first
  // access to another node's element.
  const std::string& no_windows = world_state(world).no_windows_between_nodes;
  if (!no_windows.empty())
    raise(Errc::unsupported, "Array: an array over " + std::to_string(world.node_count()) +
                                 " nodes reaches the other nodes' elements through one-sided windows, but " +
                                 no_windows);
}

GlobalAddress array_address(const PatternCore& pattern, Segment& segment, std::size_t element_size, Index index,
                            const char* call) {
  const DimensionMap& m = pattern.map(0);
  if (index < 0 || index >= m.extent)
    raise(Errc::out_of_range, std::string(call) + ": index " + std::to_string(index) + " is not in [0, " +
                                  std::to_string(m.extent) + "), the array's size");
  GlobalAddress a;
  a.segment = &segment;
  a.rank = m.owner(index);
  a.offset = static_cast<std::size_t>(m.local(index)) * element_size;
  if (std::byte* peer = segment.peer_data(a.rank)) a.direct = peer + a.offset;
  return a;
}

const HaloSpec* halo_of(const GridBase& grid) noexcept { return &grid_state(grid).halo; }

void check_buffer_range(const void* first, const void* last, const char* call) {
  if (static_cast<const std::byte*>(last) < static_cast<const std::byte*>(first))
    raise(Errc::invalid_argument, std::string(call) + ": the buffer range ends before it begins (last < first)");
}

namespace {

void check_copy_range(const PatternCore& pattern, bool grid, const Index* low, const Index* extent, const char* call) {
  const int n = pattern.dimensions();
  for (int d = 0; d < n; ++d) {
    const Index size = pattern.map(d).extent;
    if (extent[d] >= 0 && low[d] >= 0 && low[d] + extent[d] <= size) continue;
    std::ostringstream text;
    text << call << ": the range " << describe_box(n, low, extent) << " is not inside the " << (grid ? "grid" : "array")
         << " (";
    for (int e = 0; e < n; ++e) text << (e ? " x " : "") << "[0, " << pattern.map(e).extent << ")";
    text << "); dimension " << d << " reaches [" << low[d] << ", " << low[d] + extent[d] << ")";
    raise(Errc::out_of_range, text.str());
  }
}

// Every dimension of the range cut where its owner changes; each combination of stretches is one
// owner's box.
std::vector<std::vector<Stretch>> cut_by_owner(const PatternCore& pattern, const Index* low, const Index* extent) {
  const int n = pattern.dimensions();
  std::vector<std::vector<Stretch>> stretches(static_cast<std::size_t>(n));
  for (int d = 0; d < n; ++d) {
    const DimensionMap& m = pattern.map(d);
    for (Index g = low[d]; g < low[d] + extent[d];) {
      const Index end = std::min(low[d] + extent[d], m.block_end(g));
      stretches[static_cast<std::size_t>(d)].push_back({m.owner(g), g, end});
      g = end;
    }
  }
  return stretches;
}

// The rows of one owner's box (stretch s[d] in each dimension) as runs between its memory and the
// buffer, merged where both sides continue.
void append_box_rows(const CopySource& source, const BlockLayout& b, const Stretch* const* s, const Index* low,
                     const Index* buffer_stride, std::vector<TransferRun>& list) {
  const PatternCore& pattern = *source.pattern;
  const int n = pattern.dimensions();
  const std::size_t es = source.element_size;
  Index row[max_dimensions];
  for (int d = 0; d < n; ++d) row[d] = s[d]->start;
  for (;;) {
    Index local[max_dimensions], buffer_index = 0;
    for (int d = 0; d < n; ++d) {
      local[d] = pattern.map(d).local(row[d]);
      buffer_index += (row[d] - low[d]) * buffer_stride[d];
    }
    // Arrays store by local index; grids by their padded layout (row-major as well).
    const Index element = source.halo ? b.offset(local, n) : local[0];
    const TransferRun run{static_cast<std::size_t>(element) * es, static_cast<std::size_t>(buffer_index) * es,
                          static_cast<std::size_t>(s[n - 1]->end - s[n - 1]->start) * es};
    if (!list.empty() && list.back().remote_offset + list.back().bytes == run.remote_offset &&
        list.back().local_offset + list.back().bytes == run.local_offset)
      list.back().bytes += run.bytes;
    else
      list.push_back(run);
    int d = n - 2;
    while (d >= 0 && ++row[d] == s[d]->end) {
      row[d] = s[d]->start;
      --d;
    }
    if (d < 0) return;
  }
}

// A range of an array inside one owner's block: one run, without the cutting below and its lists
// (a copy from a neighbour's block: on this node one memcpy; docs/copy-study.md). Returns false
// when the range spans owners.
bool copy_within_block(const CopySource& source, Index first, Index count, void* buffer, CopyDirection direction,
                       AsyncTransfer& transfer) {
  const DimensionMap& m = source.pattern->map(0);
  if (m.block_end(first) < first + count) return false;
  const TransferRun run{static_cast<std::size_t>(m.local(first)) * source.element_size, 0,
                        static_cast<std::size_t>(count) * source.element_size};
  if (direction == CopyDirection::to_buffer)
    transfer.get(*source.segment, m.owner(first), {&run, 1}, buffer);
  else
    transfer.put(*source.segment, m.owner(first), {&run, 1}, buffer);
  return true;
}

}  // namespace

void start_copy(const CopySource& source, const Index* low, const Index* extent, void* buffer, CopyDirection direction,
                AsyncTransfer& transfer, const char* call) {
  const PatternCore& pattern = *source.pattern;
  const int n = pattern.dimensions();
  check_copy_range(pattern, source.halo != nullptr, low, extent, call);
  Index total = 1;
  for (int d = 0; d < n; ++d) total *= extent[d];
  if (total == 0) return;
  if (buffer == nullptr) raise(Errc::invalid_argument, std::string(call) + ": the buffer is null");
  if (!source.halo && copy_within_block(source, low[0], extent[0], buffer, direction, transfer)) return;

  const std::vector<std::vector<Stretch>> stretches = cut_by_owner(pattern, low, extent);
  Index buffer_stride[max_dimensions];
  buffer_stride[n - 1] = 1;
  for (int d = n - 2; d >= 0; --d) buffer_stride[d] = buffer_stride[d + 1] * extent[d + 1];

  std::map<int, std::vector<TransferRun>> runs;  // by owner, in order
  std::map<int, BlockLayout> layouts;
  std::vector<std::size_t> pick(static_cast<std::size_t>(n), 0);
  for (;;) {
    const Stretch* s[max_dimensions];
    int units[max_dimensions];
    for (int d = 0; d < n; ++d) {
      s[d] = &stretches[static_cast<std::size_t>(d)][pick[static_cast<std::size_t>(d)]];
      units[d] = s[d]->unit;
    }
    const int rank = pattern.rank_at(units);
    auto found = layouts.find(rank);
    if (found == layouts.end())
      found = layouts.emplace(rank, block_layout(pattern, source.halo, rank, source.element_size)).first;
    append_box_rows(source, found->second, s, low, buffer_stride, runs[rank]);
    int d = n - 1;
    while (d >= 0 && ++pick[static_cast<std::size_t>(d)] == stretches[static_cast<std::size_t>(d)].size())
      pick[static_cast<std::size_t>(d--)] = 0;
    if (d < 0) break;
  }
  for (const auto& [rank, list] : runs) {
    if (direction == CopyDirection::to_buffer)
      transfer.get(*source.segment, rank, list, buffer);
    else
      transfer.put(*source.segment, rank, list, buffer);
  }
}

}  // namespace ghostwire::detail
