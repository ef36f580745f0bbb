// SPDX-License-Identifier: BSD-3-Clause
// The non-template core of TeamSpec and Pattern (declared here, defined in src/dist/pattern.cpp):
// Pattern<N> is a typed face over it, so the index arithmetic is compiled once.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ghostwire/dist/box.hpp"

namespace ghostwire {

enum class DistributionKind : std::uint8_t { blocked, cyclic, block_cyclic, tile, none };

// How one dimension is spread over the ranks of its team dimension (DASH's DistributionSpec).
struct Distribution {
  DistributionKind kind = DistributionKind::blocked;
  Index block = 0;  // block size of block_cyclic and tile
  bool operator==(const Distribution&) const = default;
};

// One contiguous block per rank, ceil(extent / ranks) elements; the last blocks are underfilled
// (and can be empty) when the extent does not divide.
inline constexpr Distribution BLOCKED{DistributionKind::blocked, 0};
// Element i on rank i mod ranks.
inline constexpr Distribution CYCLIC{DistributionKind::cyclic, 1};
// Not distributed: the team must have one rank in this dimension.
inline constexpr Distribution NONE{DistributionKind::none, 0};
// Blocks of `block` elements dealt out round robin.
constexpr Distribution BLOCKCYCLIC(Index block) { return {DistributionKind::block_cyclic, block}; }
// Like BLOCKCYCLIC, and a rank stores its elements tile by tile (every dimension must be TILE).
constexpr Distribution TILE(Index block) { return {DistributionKind::tile, block}; }

std::string describe(const Distribution& distribution);

// Which rank computes which block of a team (docs/topology.md): rank_order puts team position p
// (row-major) on rank p; hierarchical puts neighbouring positions on ranks that share the deepest
// level of the machine (node, then package, ...; across nodes the topology file's levels);
// automatic is hierarchical when a topology is known (the World's settings name a topology file,
// GHOSTWIRE_TOPOLOGY, or the world has more than one node) and rank_order otherwise. Only who
// computes a block changes: blocks keep their global coordinates, so anything gathered or printed
// by block position is unchanged.
enum class Placement : std::uint8_t { automatic, rank_order, hierarchical };
const char* placement_name(Placement placement) noexcept;
Placement placement_from_name(const std::string& name);  // throws naming the accepted names

namespace detail {

inline constexpr int max_dimensions = 8;

// A team's placement: rank_of[position] and its inverse. Shared (immutable) by the TeamSpec and
// every Pattern over it.
struct RankPermutation {
  std::vector<int> rank_of, position_of;
  // Throws Error(invalid_argument) unless `rank_of` is a permutation of 0..size-1; null for the
  // identity, so that a placement equal to rank order compares equal to none.
  static std::shared_ptr<const RankPermutation> make(std::vector<int> rank_of, int size, const char* context);
};
using Permutation = std::shared_ptr<const RankPermutation>;  // null: rank order

// Every distribution of one dimension is block-cyclic with some block size: BLOCKED has
// ceil(extent / units), NONE the whole extent, CYCLIC 1.
struct DimensionMap {
  Index extent = 0;
  int units = 1;
  Index block = 1;

  int owner(Index g) const noexcept { return static_cast<int>((g / block) % units); }
  Index local(Index g) const noexcept { return (g / block / units) * block + g % block; }
  Index global(int unit, Index l) const noexcept { return ((l / block) * units + unit) * block + l % block; }
  // Elements of `unit` with a global index below g (0 <= g <= extent).
  Index count_before(int unit, Index g) const noexcept {
    Index round = block * units;
    Index partial = std::clamp<Index>(g % round - static_cast<Index>(unit) * block, 0, block);
    return g / round * block + partial;
  }
  Index local_extent(int unit) const noexcept { return count_before(unit, extent); }
  Index block_end(Index g) const noexcept { return std::min(extent, (g / block + 1) * block); }
};

// Row-major rank <-> team coordinates and the balanced factorisations.
int team_rank(int dimensions, const int* team, const int* coords);
void team_coords(int dimensions, const int* team, int rank, int* coords);
void check_team(int dimensions, const int* team, const char* context);
// As MPI_Dims_create: factors as equal as possible, non-increasing.
void balanced_team(int ranks, int dimensions, int* team);
// The factorisation with the fewest ghost cells per block for a grid of these extents; dimensions
// that are not `distributed` get 1.
void team_for_extents(int ranks, int dimensions, const Index* extents, const bool* distributed, int* team);

class PatternCore {
 public:
  PatternCore() = default;
  // Throws Error(invalid_argument) naming the dimension and value of any bad argument.
  PatternCore(int dimensions, const Index* extents, const Distribution* distributions, const int* team,
              Permutation placement = nullptr);

  int dimensions() const noexcept { return dimensions_; }
  const DimensionMap& map(int d) const noexcept { return maps_[d]; }
  const Distribution& distribution(int d) const noexcept { return distributions_[d]; }
  int team_size() const noexcept { return team_size_; }
  const int* team() const noexcept { return team_; }
  bool tiled() const noexcept { return tiled_; }
  bool blocked() const noexcept;  // one block per rank in every dimension (BLOCKED or NONE)
  // The rank at team coordinates `units`, and the team coordinates of `rank` (through the
  // placement; row-major when there is none).
  int rank_at(const int* units) const noexcept;
  void units_of(int rank, int* units) const noexcept;
  const Permutation& placement() const noexcept { return placement_; }
  Index size() const noexcept;

  int owner(const Index* global) const noexcept;
  void local_coords(const Index* global, Index* local) const noexcept;
  void global_coords(int rank, const Index* local, Index* global) const noexcept;
  void local_extents(int rank, Index* extents) const noexcept;
  Index local_size(int rank) const noexcept;
  // Position in the rank's local storage: row-major, or tile by tile for TILE patterns.
  Index local_offset(int rank, const Index* local) const noexcept;
  void local_coords_of(int rank, Index offset, Index* local) const noexcept;
  // A blocked pattern's block of `rank` in global coordinates.
  void block(int rank, Index* low, Index* extent) const;
  // The local coordinates of `rank`'s elements inside the global box, as a box: contiguous per
  // dimension for every distribution because local order follows global order.
  void local_range(int rank, const Index* low, const Index* extent, Index* local_low, Index* local_extent) const noexcept;

  std::string describe() const;
  bool operator==(const PatternCore& other) const noexcept;

 private:
  int dimensions_ = 0;
  int team_size_ = 1;
  bool tiled_ = false;
  DimensionMap maps_[max_dimensions]{};
  Distribution distributions_[max_dimensions]{};
  int team_[max_dimensions]{};
  Permutation placement_;
};

}  // namespace detail
}  // namespace ghostwire
