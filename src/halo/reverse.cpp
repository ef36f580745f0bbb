// SPDX-License-Identifier: BSD-3-Clause
// The reverse exchange: the transpose plan, its scratch, and the combination in a fixed order
// (halo/reverse.hpp; docs/plans.md, "Reverse exchange").
#include "halo/reverse.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "ghostwire/error.hpp"
#include "halo/plan_state.hpp"

namespace ghostwire::detail {

namespace {

constexpr std::size_t scratch_alignment = 64;  // a piece's values start on a cache line of their own

std::size_t round_up(std::size_t bytes) { return (bytes + scratch_alignment - 1) / scratch_alignment * scratch_alignment; }

std::size_t piece_bytes(const PlanState& p, const PieceSpec& piece) {
  return piece.layout.count() * p.regions[static_cast<std::size_t>(piece.region)].element_size;
}

// The forward plan's slots, owned by neighbour rank and then channel: the order contributions are
// combined in, whatever order the neighbours were listed in.
std::vector<std::size_t> slots_in_rank_order(const PlanState& p, std::size_t channels) {
  std::vector<std::size_t> by_rank(p.neighbours.size());
  std::iota(by_rank.begin(), by_rank.end(), std::size_t{0});
  std::sort(by_rank.begin(), by_rank.end(), [&](std::size_t a, std::size_t b) { return p.neighbours[a] < p.neighbours[b]; });
  std::vector<std::size_t> slots;
  for (std::size_t n : by_rank)
    for (std::size_t c = 0; c < channels; ++c) slots.push_back(n * channels + c);
  return slots;
}

}  // namespace

void build_reverse(PlanState& p) {
  if (p.reverse) return;
  auto r = std::make_unique<ReverseState>();
  // From commit on the plan's own channels are the partitions of partitioned messages, each with its
  // pieces: the transpose sends each of them back as a message of its own.
  const std::size_t channels = p.neighbours.empty() ? 1 : p.send_pieces.size() / p.neighbours.size();
  const std::vector<std::size_t> order = slots_in_rank_order(p, channels);
  std::size_t total = 0;
  for (std::size_t s : order)
    for (const PieceSpec& piece : p.send_pieces[s]) total += round_up(piece_bytes(p, piece));
  r->scratch = std::make_unique<Segment>(*p.world, total, 1);
  r->plan = std::make_unique<Plan>(*p.world, std::span<const int>(p.neighbours), channels);
  Plan& transpose = *r->plan;
  std::vector<Region> forward_region;
  for (const RegionSpec& spec : p.regions) forward_region.push_back(transpose.add_memory(spec.base, spec.bytes, spec.element_size));
  std::size_t offset = 0;
  for (std::size_t s : order) {
    const int rank = p.neighbours[s / channels];
    const std::size_t channel = s % channels;
    for (const PieceSpec& piece : p.receive_pieces[s])
      transpose.add_send(channel, rank, forward_region[static_cast<std::size_t>(piece.region)], piece.layout);
    for (const PieceSpec& piece : p.send_pieces[s]) {
      const RegionSpec& owned = p.regions[static_cast<std::size_t>(piece.region)];
      const std::size_t bytes = piece_bytes(p, piece);
      Region scratch = transpose.add_memory(*r->scratch, owned.element_size, offset, bytes);
      transpose.add_receive(channel, rank, scratch, Layout::contiguous(0, piece.layout.count()));
      const std::size_t first_run = r->runs.size();
      piece.layout.for_each_run([&](std::size_t first, std::size_t length) {
        r->runs.push_back({owned.base + first * owned.element_size, length * owned.element_size});
      });
      r->stretches.push_back({first_run, r->runs.size(), r->scratch->data() + offset, piece.region});
      offset += round_up(bytes);
    }
  }
  transpose.commit();
  p.reverse = std::move(r);
}

static ReverseState& require_reverse(PlanState& p, const char* call) {
  if (!p.committed)
    raise(Errc::state, std::string(call) + ": plan " + std::to_string(p.id) + " is not committed");
  if (!p.reverse)
    raise(Errc::state, std::string(call) + ": plan " + std::to_string(p.id) +
                           " has no reverse exchange; call enable_reverse() on every rank (before commit, or after it "
                           "collectively)");
  return *p.reverse;
}

void reverse_start(PlanState& p, const char* call) {
  ReverseState& r = require_reverse(p, call);
  if (r.started)
    raise(Errc::state, std::string(call) + ": plan " + std::to_string(p.id) +
                           " has a reverse exchange under way; call reverse_finish first");
  for (const ReceiveSlot& slot : p.receives)
    if (slot.in_exchange)
      raise(Errc::state, std::string(call) + ": plan " + std::to_string(p.id) +
                             " has a forward exchange under way (start() without finish()); its ghost cells are "
                             "not final");
  r.plan->start();
  r.started = true;
}

static void check_combinations(const PlanState& p, std::span<const Combine> per_region, const char* call) {
  if (per_region.size() != 1 && per_region.size() != p.regions.size())
    raise(Errc::invalid_argument, std::string(call) + ": " + std::to_string(per_region.size()) +
                                      " combinations given for the " + std::to_string(p.regions.size()) +
                                      " regions of plan " + std::to_string(p.id) + " (one for all, or one per region)");
  for (std::size_t i = 0; i < p.regions.size(); ++i) {
    const Combine how = per_region[per_region.size() == 1 ? 0 : i];
    if (static_cast<unsigned>(how.op) > static_cast<unsigned>(ReduceOp::replace))
      raise(Errc::invalid_argument, std::string(call) + ": unknown ReduceOp " + std::to_string(static_cast<int>(how.op)));
    if (static_cast<unsigned>(how.type) > static_cast<unsigned>(ScalarType::int64))
      raise(Errc::invalid_argument, std::string(call) + ": unknown ScalarType " + std::to_string(static_cast<int>(how.type)));
    if (p.regions[i].element_size % scalar_size(how.type) != 0)
      raise(Errc::invalid_argument, std::string(call) + ": region " + std::to_string(i) + " of plan " +
                                        std::to_string(p.id) + " has elements of " +
                                        std::to_string(p.regions[i].element_size) + " bytes, not a whole number of " +
                                        scalar_name(how.type) + " values");
  }
}

void reverse_finish(PlanState& p, std::span<const Combine> per_region, const char* call) {
  ReverseState& r = require_reverse(p, call);
  if (!r.started)
    raise(Errc::state, std::string(call) + ": plan " + std::to_string(p.id) + " has no reverse exchange under way; call reverse_start first");
  check_combinations(p, per_region, call);  // before finishing: a wrong call leaves the exchange to finish
  r.plan->finish();
  r.started = false;
  const std::span<const ReverseRun> runs(r.runs);
  for (const ReverseStretch& stretch : r.stretches)
    combine_runs(per_region[per_region.size() == 1 ? 0 : static_cast<std::size_t>(stretch.region)],
                 runs.subspan(stretch.first, stretch.end - stretch.first), stretch.scratch);
}

}  // namespace ghostwire::detail
