// SPDX-License-Identifier: BSD-3-Clause
// Index arithmetic of TeamSpec and Pattern, and the team shapes of TeamSpec::balanced and
// make_pattern (docs/dist.md, "Patterns and teams"); the factorisations they choose from are
// shared with topo (runtime/factorisation.hpp).
#include <algorithm>
#include <limits>
#include <sstream>
#include <vector>

#include "ghostwire/dist/pattern_core.hpp"
#include "ghostwire/error.hpp"
#include "runtime/factorisation.hpp"

namespace ghostwire {

const char* placement_name(Placement placement) noexcept {
  switch (placement) {
    case Placement::automatic: return "automatic";
    case Placement::rank_order: return "rank_order";
    case Placement::hierarchical: return "hierarchical";
  }
  return "unknown";
}

Placement placement_from_name(const std::string& name) {
  for (Placement p : {Placement::automatic, Placement::rank_order, Placement::hierarchical})
    if (name == placement_name(p)) return p;
  raise(Errc::invalid_argument, "placement '" + name + "': expected automatic, rank_order or hierarchical");
}

std::string describe(const Distribution& distribution) {
  switch (distribution.kind) {
    case DistributionKind::blocked: return "BLOCKED";
    case DistributionKind::cyclic: return "CYCLIC";
    case DistributionKind::block_cyclic: return "BLOCKCYCLIC(" + std::to_string(distribution.block) + ")";
    case DistributionKind::tile: return "TILE(" + std::to_string(distribution.block) + ")";
    case DistributionKind::none: return "NONE";
  }
  return "unknown distribution " + std::to_string(static_cast<int>(distribution.kind));
}

namespace detail {

std::shared_ptr<const RankPermutation> RankPermutation::make(std::vector<int> rank_of, int size, const char* context) {
  if (static_cast<int>(rank_of.size()) != size)
    raise(Errc::invalid_argument, std::string(context) + ": the placement has " + std::to_string(rank_of.size()) +
                                      " positions; expected " + std::to_string(size));
  auto p = std::make_shared<RankPermutation>();
  p->position_of.assign(rank_of.size(), -1);
  for (std::size_t position = 0; position < rank_of.size(); ++position) {
    int rank = rank_of[position];
    if (rank < 0 || rank >= size || p->position_of[static_cast<std::size_t>(rank)] >= 0)
      raise(Errc::invalid_argument, std::string(context) + ": the placement puts position " + std::to_string(position) +
                                        " on rank " + std::to_string(rank) +
                                        "; expected a permutation of the ranks 0.." + std::to_string(size - 1));
    p->position_of[static_cast<std::size_t>(rank)] = static_cast<int>(position);
  }
  bool identity = true;
  for (std::size_t position = 0; position < rank_of.size(); ++position) identity &= rank_of[position] == static_cast<int>(position);
  if (identity) return nullptr;
  p->rank_of = std::move(rank_of);
  return p;
}

namespace {

std::string dimension_name(int d) { return "dimension " + std::to_string(d); }

void check_ranks(int ranks, const char* context) {
  if (ranks < 1)
    raise(Errc::invalid_argument, std::string(context) + ": ranks is " + std::to_string(ranks) + "; expected >= 1");
}

void check_dimensions(int dimensions, const char* context) {
  if (dimensions < 1 || dimensions > max_dimensions)
    raise(Errc::invalid_argument, std::string(context) + ": " + std::to_string(dimensions) +
                                      " dimensions; expected 1 to " + std::to_string(max_dimensions));
}

}  // namespace

int team_rank(int dimensions, const int* team, const int* coords) {
  int rank = 0;
  for (int d = 0; d < dimensions; ++d) rank = rank * team[d] + coords[d];
  return rank;
}

void team_coords(int dimensions, const int* team, int rank, int* coords) {
  for (int d = dimensions - 1; d >= 0; --d) {
    coords[d] = rank % team[d];
    rank /= team[d];
  }
}

void check_team(int dimensions, const int* team, const char* context) {
  check_dimensions(dimensions, context);
  long long size = 1;
  for (int d = 0; d < dimensions; ++d) {
    if (team[d] < 1)
      raise(Errc::invalid_argument, std::string(context) + ": the team extent of " + dimension_name(d) + " is " +
                                        std::to_string(team[d]) + "; expected >= 1");
    size *= team[d];
    if (size > std::numeric_limits<int>::max())
      raise(Errc::invalid_argument, std::string(context) + ": the team has more than " +
                                        std::to_string(std::numeric_limits<int>::max()) + " ranks");
  }
}

void balanced_team(int ranks, int dimensions, int* team) {
  check_ranks(ranks, "TeamSpec::balanced");
  check_dimensions(dimensions, "TeamSpec::balanced");
  balanced_factors(ranks, dimensions, team, "TeamSpec::balanced");
}

void team_for_extents(int ranks, int dimensions, const Index* extents, const bool* distributed, int* team) {
  check_ranks(ranks, "make_pattern");
  check_dimensions(dimensions, "make_pattern");
  bool any = false;
  for (int d = 0; d < dimensions; ++d) any |= distributed[d];
  if (!any && ranks > 1)
    raise(Errc::invalid_argument, "make_pattern: every dimension is NONE, so the pattern spans 1 rank, but ranks is " +
                                      std::to_string(ranks));
  if (!any) {
    std::fill(team, team + dimensions, 1);
    return;
  }
  // Cost of a factorisation: ranks owning nothing first, then the ghost cells of a one-cell halo
  // around a block (the communication volume); ties go to splitting slower dimensions.
  double best_empty = 0, best_cost = 0;
  bool found = false;
  for_each_factorisation(ranks, dimensions, distributed, [&](const int* f) {
    double empty = 0, cost = 0;
    double block[max_dimensions];
    for (int d = 0; d < dimensions; ++d) {
      Index n = std::max<Index>(extents[d], 0);
      Index b = (n + f[d] - 1) / f[d];
      block[d] = static_cast<double>(b);
      Index owners = b > 0 ? (n + b - 1) / b : 0;
      empty += static_cast<double>(f[d] - owners);
    }
    for (int d = 0; d < dimensions; ++d) {
      if (f[d] == 1) continue;
      double face = 2;
      for (int e = 0; e < dimensions; ++e)
        if (e != d) face *= block[e];
      cost += face;
    }
    bool better = !found || empty < best_empty || (empty == best_empty && cost < best_cost);
    if (!better && empty == best_empty && cost == best_cost) {
      // Equal volume: fewer ranks in the longest team dimension (fewer neighbours per message
      // volume, as MPI_Dims_create), then the slower dimensions split first.
      int largest = *std::max_element(f, f + dimensions), best_largest = *std::max_element(team, team + dimensions);
      better = largest < best_largest ||
               (largest == best_largest && std::lexicographical_compare(team, team + dimensions, f, f + dimensions));
    }
    if (!better) return;
    best_empty = empty;
    best_cost = cost;
    std::copy(f, f + dimensions, team);
    found = true;
  });
}

PatternCore::PatternCore(int dimensions, const Index* extents, const Distribution* distributions, const int* team,
                         Permutation placement)
    : dimensions_(dimensions), placement_(std::move(placement)) {
  check_team(dimensions, team, "Pattern");
  int tiles = 0;
  for (int d = 0; d < dimensions; ++d) {
    const Distribution& dist = distributions[d];
    DimensionMap& m = maps_[d];
    if (extents[d] < 0)
      raise(Errc::invalid_argument, "Pattern: the extent of " + dimension_name(d) + " is " +
                                        std::to_string(extents[d]) + "; expected >= 0");
    m.extent = extents[d];
    m.units = team[d];
    team_[d] = team[d];
    distributions_[d] = dist;
    switch (dist.kind) {
      case DistributionKind::blocked:
        m.block = std::max<Index>(1, (m.extent + m.units - 1) / m.units);
        break;
      case DistributionKind::cyclic:
        m.block = 1;
        distributions_[d].block = 1;
        break;
      case DistributionKind::block_cyclic:
      case DistributionKind::tile:
        if (dist.block < 1)
          raise(Errc::invalid_argument, "Pattern: " + ghostwire::describe(dist) + " in " + dimension_name(d) +
                                            ": the block size is " + std::to_string(dist.block) + "; expected >= 1");
        m.block = dist.block;
        tiles += dist.kind == DistributionKind::tile;
        break;
      case DistributionKind::none:
        if (m.units != 1)
          raise(Errc::invalid_argument, "Pattern: " + dimension_name(d) + " is NONE (not distributed) but the team has " +
                                            std::to_string(m.units) + " ranks in it; expected 1");
        m.block = std::max<Index>(1, m.extent);
        break;
      default:
        raise(Errc::invalid_argument, "Pattern: " + dimension_name(d) + " has an unknown distribution kind " +
                                          std::to_string(static_cast<int>(dist.kind)));
    }
    team_size_ *= team[d];
  }
  if (tiles > 0 && tiles < dimensions) {
    int first_other = 0;
    while (distributions[first_other].kind == DistributionKind::tile) ++first_other;
    raise(Errc::invalid_argument, "Pattern: TILE in some dimensions but " + ghostwire::describe(distributions[first_other]) +
                                      " in " + dimension_name(first_other) +
                                      "; a tiled pattern needs TILE in every dimension");
  }
  tiled_ = tiles > 0;
  if (placement_ && static_cast<int>(placement_->rank_of.size()) != team_size_)
    raise(Errc::invalid_argument, "Pattern: the placement has " + std::to_string(placement_->rank_of.size()) +
                                      " positions but the team has " + std::to_string(team_size_) + " ranks");
}

int PatternCore::rank_at(const int* units) const noexcept {
  int position = team_rank(dimensions_, team_, units);
  return placement_ ? placement_->rank_of[static_cast<std::size_t>(position)] : position;
}

void PatternCore::units_of(int rank, int* units) const noexcept {
  int position = placement_ ? placement_->position_of[static_cast<std::size_t>(rank)] : rank;
  team_coords(dimensions_, team_, position, units);
}

bool PatternCore::blocked() const noexcept {
  for (int d = 0; d < dimensions_; ++d) {
    DistributionKind k = distributions_[d].kind;
    if (k != DistributionKind::blocked && k != DistributionKind::none) return false;
  }
  return true;
}

Index PatternCore::size() const noexcept {
  Index n = 1;
  for (int d = 0; d < dimensions_; ++d) n *= maps_[d].extent;
  return n;
}

int PatternCore::owner(const Index* global) const noexcept {
  int units[max_dimensions];
  for (int d = 0; d < dimensions_; ++d) units[d] = maps_[d].owner(global[d]);
  return rank_at(units);
}

void PatternCore::local_coords(const Index* global, Index* local) const noexcept {
  for (int d = 0; d < dimensions_; ++d) local[d] = maps_[d].local(global[d]);
}

void PatternCore::global_coords(int rank, const Index* local, Index* global) const noexcept {
  int units[max_dimensions];
  units_of(rank, units);
  for (int d = 0; d < dimensions_; ++d) global[d] = maps_[d].global(units[d], local[d]);
}

void PatternCore::local_extents(int rank, Index* extents) const noexcept {
  int units[max_dimensions];
  units_of(rank, units);
  for (int d = 0; d < dimensions_; ++d) extents[d] = maps_[d].local_extent(units[d]);
}

Index PatternCore::local_size(int rank) const noexcept {
  Index extents[max_dimensions];
  local_extents(rank, extents);
  Index n = 1;
  for (int d = 0; d < dimensions_; ++d) n *= extents[d];
  return n;
}

// Tiled storage: tiles in row-major order of their local tile coordinates, each tile row-major
// inside. Only a rank's last tile in a dimension can be partial, so the elements before tile
// (t0, t1, ...) add up dimension by dimension.
Index PatternCore::local_offset(int rank, const Index* local) const noexcept {
  Index extents[max_dimensions];
  local_extents(rank, extents);
  Index offset = 0;
  if (!tiled_) {
    for (int d = 0; d < dimensions_; ++d) offset = offset * extents[d] + local[d];
    return offset;
  }
  Index tile_extent[max_dimensions];
  for (int d = 0; d < dimensions_; ++d) {
    Index b = maps_[d].block, t = local[d] / b;
    tile_extent[d] = std::min(b, extents[d] - t * b);
  }
  Index before = 1;  // product of the tile extents of earlier dimensions
  for (int d = 0; d < dimensions_; ++d) {
    Index b = maps_[d].block, t = local[d] / b;
    Index after = 1;
    for (int e = d + 1; e < dimensions_; ++e) after *= extents[e];
    offset += before * t * b * after;
    before *= tile_extent[d];
  }
  Index inside = 0;
  for (int d = 0; d < dimensions_; ++d) inside = inside * tile_extent[d] + local[d] % maps_[d].block;
  return offset + inside;
}

void PatternCore::local_coords_of(int rank, Index offset, Index* local) const noexcept {
  Index extents[max_dimensions];
  local_extents(rank, extents);
  if (!tiled_) {
    for (int d = dimensions_ - 1; d >= 0; --d) {
      Index e = std::max<Index>(extents[d], 1);
      local[d] = offset % e;
      offset /= e;
    }
    return;
  }
  Index tile_extent[max_dimensions], tile[max_dimensions];
  Index before = 1;
  for (int d = 0; d < dimensions_; ++d) {
    Index b = maps_[d].block, after = 1;
    for (int e = d + 1; e < dimensions_; ++e) after *= extents[e];
    Index slab = before * b * after;  // elements of one tile step in this dimension
    tile[d] = slab > 0 ? offset / slab : 0;
    offset -= tile[d] * slab;
    tile_extent[d] = std::min(b, extents[d] - tile[d] * b);
    before *= tile_extent[d];
  }
  for (int d = dimensions_ - 1; d >= 0; --d) {
    Index e = std::max<Index>(tile_extent[d], 1);
    local[d] = tile[d] * maps_[d].block + offset % e;
    offset /= e;
  }
}

void PatternCore::block(int rank, Index* low, Index* extent) const {
  if (!blocked())
    raise(Errc::invalid_argument, "Pattern::block: the pattern (" + describe() +
                                      ") is not blocked; a rank holds one block only when every dimension is "
                                      "BLOCKED or NONE");
  int units[max_dimensions];
  units_of(rank, units);
  for (int d = 0; d < dimensions_; ++d) {
    extent[d] = maps_[d].local_extent(units[d]);
    low[d] = std::min(maps_[d].extent, static_cast<Index>(units[d]) * maps_[d].block);
  }
}

void PatternCore::local_range(int rank, const Index* low, const Index* extent, Index* local_low,
                              Index* local_extent) const noexcept {
  int units[max_dimensions];
  units_of(rank, units);
  for (int d = 0; d < dimensions_; ++d) {
    const DimensionMap& m = maps_[d];
    Index a = std::clamp<Index>(low[d], 0, m.extent), b = std::clamp<Index>(low[d] + extent[d], 0, m.extent);
    Index la = m.count_before(units[d], a), lb = m.count_before(units[d], std::max(a, b));
    local_low[d] = la;
    local_extent[d] = lb - la;
  }
}

std::string PatternCore::describe() const {
  std::ostringstream text;
  text << dimensions_ << "-D pattern, extents ";
  for (int d = 0; d < dimensions_; ++d) text << (d ? " x " : "") << maps_[d].extent;
  text << ", ";
  for (int d = 0; d < dimensions_; ++d) text << (d ? " x " : "") << ghostwire::describe(distributions_[d]);
  text << ", team ";
  for (int d = 0; d < dimensions_; ++d) text << (d ? " x " : "") << team_[d];
  if (placement_) text << ", placed";
  return text.str();
}

bool PatternCore::operator==(const PatternCore& other) const noexcept {
  if (dimensions_ != other.dimensions_) return false;
  for (int d = 0; d < dimensions_; ++d) {
    const DimensionMap &a = maps_[d], &b = other.maps_[d];
    if (a.extent != b.extent || a.units != b.units || a.block != b.block ||
        distributions_[d].kind != other.distributions_[d].kind)
      return false;
  }
  if (!placement_ || !other.placement_) return placement_ == other.placement_;
  return placement_->rank_of == other.placement_->rank_of;
}

}  // namespace detail
}  // namespace ghostwire
