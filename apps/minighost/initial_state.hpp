// SPDX-License-Identifier: BSD-3-Clause
// The reference's initial grid and heat spikes, reproduced exactly (docs/minighost.md, "Initial
// values and spikes").
//
// - Initial grid: with --debug_grid 1 every cell is 0. Otherwise the reference reseeds and draws one
//   random number r before each cell, so every cell gets the same value
//   mod(int(100 r), nx*ny*nz) + 1 with nx*ny*nz this rank's block (48 when the block has at least
//   48 cells); ghost cells stay 0.
// - Spikes: spike 1 puts the global cell count gx*gy*gz into variable 1 at the 1-based global cell
//   ((gx+1)/2, (gy+1)/2, (gz+1)/2). Spike s of variable v otherwise gets (r + 1) * gx*gy*gz * ranks
//   with r the ((s-1)*num_vars + v)-th number of a freshly seeded stream, and spikes 2.. sit at
//   1-based cell int(r * g + 1) per axis, r from another freshly seeded stream (3 numbers per spike,
//   in x, y, z order). All variables of a spike share its cell.
#pragma once

#include <vector>

#include "decomposition.hpp"
#include "field_view.hpp"
#include "options.hpp"

namespace minighost {

struct Spike {
  long long cell[3];           // global 0-based position
  std::vector<double> values;  // heat added to each variable
};

double initial_cell_value(const Options& options, const Decomposition& decomposition);
std::vector<Spike> make_spikes(const Options& options, const Decomposition& decomposition);

// Sets every owned cell to `value` (ghost cells are left alone: they start at 0).
void fill_owned_cells(const FieldView& field, double value);
// Adds spike's value for `variable` if this rank owns the spike's cell.
void insert_spike(const Spike& spike, int variable, const FieldView& field, const Decomposition& decomposition);

}  // namespace minighost
