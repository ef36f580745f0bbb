// SPDX-License-Identifier: BSD-3-Clause
// generate_chunk_kernel.f90: the initial state. State 1 fills the chunk, ghost cells included; each
// later state overwrites the cells it covers (and their four nodes' velocities). As read_input.f90
// does, the later states' bounds are first pulled in by 1% of a cell, so a state edge on a cell
// edge does not catch the neighbouring cell (and a point state must hit that shifted point).
//
// See docs/cloverleaf.md, "Kernels and exactness".
#include <cmath>

#include "kernels.hpp"

namespace cloverleaf {

void generate_chunk(Chunk& c, const Deck& deck) {
  const double dx = (deck.xmax - deck.xmin) / static_cast<double>(static_cast<float>(deck.x_cells));
  const double dy = (deck.ymax - deck.ymin) / static_cast<double>(static_cast<float>(deck.y_cells));
  std::vector<State> states = deck.states;
  for (std::size_t n = 1; n < states.size(); ++n) {
    states[n].xmin = states[n].xmin + (dx / 100.0);
    states[n].ymin = states[n].ymin + (dy / 100.0);
    states[n].xmax = states[n].xmax - (dx / 100.0);
    states[n].ymax = states[n].ymax - (dy / 100.0);
  }

  const Rows energy0 = rows(c.energy0), density0 = rows(c.density0), xvel0 = rows(c.xvel0), yvel0 = rows(c.yvel0);
  for (Index k = c.y_min - 2; k <= c.y_max + 2; ++k) {
    for (Index j = c.x_min - 2; j <= c.x_max + 2; ++j) {
      energy0[k][j] = states[0].energy;
      density0[k][j] = states[0].density;
      xvel0[k][j] = states[0].xvel;
      yvel0[k][j] = states[0].yvel;
    }
  }

  for (std::size_t n = 1; n < states.size(); ++n) {
    const State& s = states[n];
    const double x_cent = s.xmin, y_cent = s.ymin;
    for (Index k = c.y_min - 2; k <= c.y_max + 2; ++k) {
      for (Index j = c.x_min - 2; j <= c.x_max + 2; ++j) {
        bool inside = false;
        if (s.geometry == Geometry::rectangle) {
          inside = c.vertexx[j + 1] >= s.xmin && c.vertexx[j] < s.xmax && c.vertexy[k + 1] >= s.ymin &&
                   c.vertexy[k] < s.ymax;
        } else if (s.geometry == Geometry::circle) {
          const double radius = std::sqrt((c.cellx[j] - x_cent) * (c.cellx[j] - x_cent) +
                                          (c.celly[k] - y_cent) * (c.celly[k] - y_cent));
          inside = radius <= s.radius;
        } else if (s.geometry == Geometry::point) {
          inside = c.vertexx[j] == x_cent && c.vertexy[k] == y_cent;
        }
        if (!inside) continue;
        energy0[k][j] = s.energy;
        density0[k][j] = s.density;
        for (Index kt = k; kt <= k + 1; ++kt) {
          for (Index jt = j; jt <= j + 1; ++jt) {
            xvel0[kt][jt] = s.xvel;
            yvel0[kt][jt] = s.yvel;
          }
        }
      }
    }
  }
}

}  // namespace cloverleaf
