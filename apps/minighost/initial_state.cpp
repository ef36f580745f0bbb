// SPDX-License-Identifier: BSD-3-Clause
// The reference's initial value and spikes (initial_state.hpp) (see docs/minighost.md, "Semantics",
// Initial values, Spikes).
#include "initial_state.hpp"

#include <algorithm>

#include "gfortran_random.hpp"

namespace minighost {

double initial_cell_value(const Options& options, const Decomposition& d) {
  if (options.debug_grid == 1) return 0.0;
  // Fortran: ITMP = r * 100 truncates toward zero; the modulus uses this rank's block size.
  const double r = GfortranRandom::miniGhost_seed().next_real8();
  const auto hundred_r = static_cast<long long>(r * 100.0);
  const long long block_cells = static_cast<long long>(d.block()[x]) * d.block()[y] * d.block()[z];
  return static_cast<double>(hundred_r % block_cells + 1);
}

std::vector<Spike> make_spikes(const Options& options, const Decomposition& d) {
  const auto& g = d.global_size();
  std::vector<Spike> spikes(static_cast<std::size_t>(options.num_spikes));

  // Values: RANDOM_NUMBER fills SPIKES(num_vars, num_spikes) in Fortran order (variable fastest),
  // then SPIKES = (SPIKES + 1.0) * gx * gy * gz * ranks, evaluated left to right in double.
  GfortranRandom values = GfortranRandom::miniGhost_seed();
  for (auto& spike : spikes) {
    spike.values.resize(static_cast<std::size_t>(options.num_vars));
    for (double& value : spike.values) {
      value = (values.next_real8() + 1.0) * static_cast<double>(g[x]) * static_cast<double>(g[y]) *
              static_cast<double>(g[z]) * static_cast<double>(d.ranks());
    }
  }
  // REAL(gx*gy*gz) is a default (single precision) REAL in the reference.
  const long long global_cells = static_cast<long long>(g[x]) * g[y] * g[z];
  spikes[0].values[0] = static_cast<double>(static_cast<float>(global_cells));

  // Positions: a second freshly seeded stream fills RSPIKE_LOC(3, num_spikes); spike 1's numbers
  // are drawn but it goes to the centre.
  GfortranRandom positions = GfortranRandom::miniGhost_seed();
  for (std::size_t s = 0; s < spikes.size(); ++s) {
    for (int axis = 0; axis < 3; ++axis) {
      const double r = positions.next_real8();
      const long long one_based = s == 0 ? (g[axis] + 1) / 2 : static_cast<long long>(r * g[axis] + 1.0);
      spikes[s].cell[axis] = one_based - 1;
    }
  }
  return spikes;
}

void fill_owned_cells(const FieldView& f, double value) {
  for (int k = 1; k <= f.nz; ++k) {
    for (int j = 1; j <= f.ny; ++j) std::fill(f.row(j, k) + 1, f.row(j, k) + 1 + f.nx, value);
  }
}

void insert_spike(const Spike& spike, int variable, const FieldView& f, const Decomposition& d) {
  if (d.owner(spike.cell[x], spike.cell[y], spike.cell[z]) != d.rank()) return;
  const int i = static_cast<int>(spike.cell[x] - d.offset(x)) + 1;
  const int j = static_cast<int>(spike.cell[y] - d.offset(y)) + 1;
  const int k = static_cast<int>(spike.cell[z] - d.offset(z)) + 1;
  f(i, j, k) += spike.values[static_cast<std::size_t>(variable)];
}

}  // namespace minighost
