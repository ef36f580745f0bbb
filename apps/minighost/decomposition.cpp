// SPDX-License-Identifier: BSD-3-Clause
// Decomposition (decomposition.hpp): the reference's block sizes and positions, the neighbours and
// owners under a placement (see docs/minighost.md, "Semantics", Process grid and scaling).
#include "decomposition.hpp"

#include <limits>
#include <sstream>

#include "usage_error.hpp"

namespace minighost {

Decomposition::Decomposition(const Options& options, int rank, int ranks, std::vector<int> rank_of)
    : rank_(rank), ranks_(ranks), process_grid_{options.npx, options.npy, options.npz}, rank_of_(std::move(rank_of)) {
  int position = rank;
  for (std::size_t p = 0; p < rank_of_.size(); ++p)
    if (rank_of_[p] == rank) position = static_cast<int>(p);
  const int in_plane = process_grid_[x] * process_grid_[y];
  coordinates_ = {position % process_grid_[x], (position % in_plane) / process_grid_[x], position / in_plane};

  const std::array<int, 3> requested = {options.nx, options.ny, options.nz};
  std::ostringstream note;
  for (int axis = 0; axis < 3; ++axis) {
    if (options.scaling == Scaling::weak) {
      block_[axis] = requested[axis];
    } else {
      const int remainder = requested[axis] % process_grid_[axis];
      block_[axis] = requested[axis] / process_grid_[axis] + (remainder > 0 ? 1 : 0);
      if (remainder > 0) {
        static constexpr const char* names[] = {"nx", "ny", "nz"};
        static constexpr const char* grid_names[] = {"npx", "npy", "npz"};
        if (!note.str().empty()) note << "; ";
        note << names[axis] << " " << requested[axis] << " is not a multiple of " << grid_names[axis] << " "
             << process_grid_[axis] << ", so every rank gets " << block_[axis] << " cells and the global grid has "
             << static_cast<long long>(block_[axis]) * process_grid_[axis];
      }
    }
    const long long global = static_cast<long long>(block_[axis]) * process_grid_[axis];
    if (global > std::numeric_limits<int>::max()) {
      static constexpr const char* options_names[] = {"--nx", "--ny", "--nz"};
      throw UsageError(std::string(options_names[axis]) + " " + std::to_string(requested[axis]) +
                       ": the global grid would have " + std::to_string(global) +
                       " cells along this axis; expected at most " + std::to_string(std::numeric_limits<int>::max()));
    }
    global_[axis] = static_cast<int>(global);
  }
  if (!note.str().empty()) note << " (as in the reference's strong scaling)";
  enlargement_note_ = note.str();
}

int Decomposition::neighbour(Axis axis, Side side) const {
  std::array<int, 3> c = coordinates_;
  c[axis] += side == Side::low ? -1 : 1;
  if (c[axis] < 0 || c[axis] >= process_grid_[axis]) return -1;
  return rank_at(c[x] + process_grid_[x] * (c[y] + process_grid_[y] * c[z]));
}

int Decomposition::owner(long long i, long long j, long long k) const {
  const int px = static_cast<int>(i / block_[x]);
  const int py = static_cast<int>(j / block_[y]);
  const int pz = static_cast<int>(k / block_[z]);
  return rank_at(px + process_grid_[x] * (py + process_grid_[y] * pz));
}

}  // namespace minighost
