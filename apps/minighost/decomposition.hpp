// SPDX-License-Identifier: BSD-3-Clause
// Decomposition: how the global grid is split over the npx x npy x npz process grid, and where this
// rank's block sits in it.
//
// As in the reference, position p of the process grid is (p mod npx, (p / npx) mod npy,
// p / (npx*npy)) and every position has a block of the same size. Position p is on rank p unless a
// placement (--placement) says which rank computes it: rank_of[p]. Under strong scaling the reference gives every rank
// n/np + (1 if n mod np > 0): it computes the block size on rank 0 (where "rank < remainder" holds
// whenever there is a remainder) and broadcasts it. So the global grid is np * block, which is larger
// than requested when np does not divide n; we reproduce that and say so in the report.
//
// See docs/minighost.md, "Semantics".
#pragma once

#include <array>
#include <string>
#include <vector>

#include "options.hpp"

namespace minighost {

enum Axis { x = 0, y = 1, z = 2 };
enum class Side { low = 0, high = 1 };

class Decomposition {
 public:
  Decomposition(const Options& options, int rank, int ranks, std::vector<int> rank_of = {});

  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  const std::array<int, 3>& process_grid() const { return process_grid_; }
  const std::array<int, 3>& coordinates() const { return coordinates_; }
  const std::array<int, 3>& block() const { return block_; }        // cells of every rank's block
  const std::array<int, 3>& global_size() const { return global_; }  // process_grid * block
  // Global 0-based index of this block's first cell along `axis`.
  long long offset(Axis axis) const { return static_cast<long long>(coordinates_[axis]) * block_[axis]; }
  // The rank across the face on `side` of `axis`, or -1 on the physical boundary.
  int neighbour(Axis axis, Side side) const;
  bool on_physical_boundary(Axis axis, Side side) const { return neighbour(axis, side) < 0; }
  // The rank owning the global 0-based cell (i, j, k).
  int owner(long long i, long long j, long long k) const;
  // Non-empty when strong scaling had to enlarge the grid (see above): a sentence for the report.
  const std::string& enlargement_note() const { return enlargement_note_; }
  // The rank computing each position; empty when position p is on rank p.
  const std::vector<int>& rank_of() const { return rank_of_; }
  int rank_at(int position) const { return rank_of_.empty() ? position : rank_of_[static_cast<std::size_t>(position)]; }

 private:
  int rank_;
  int ranks_;
  std::array<int, 3> process_grid_;
  std::array<int, 3> coordinates_;
  std::array<int, 3> block_;
  std::array<int, 3> global_;
  std::string enlargement_note_;
  std::vector<int> rank_of_;
};

}  // namespace minighost
