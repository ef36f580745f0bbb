// SPDX-License-Identifier: BSD-3-Clause
// initialise_chunk_kernel.f90: the mesh of this chunk. The reference converts cell counts and
// indices with float() (single precision) before multiplying; exact for any mesh that fits in memory,
// kept anyway.
// See docs/cloverleaf.md, "Kernels and exactness".
#include "kernels.hpp"

namespace cloverleaf {

void initialise_chunk(Chunk& c, const Deck& deck) {
  const double dx = (deck.xmax - deck.xmin) / static_cast<double>(static_cast<float>(deck.x_cells));
  const double dy = (deck.ymax - deck.ymin) / static_cast<double>(static_cast<float>(deck.y_cells));
  const double xmin = deck.xmin + dx * static_cast<double>(static_cast<float>(c.d.x_offset));
  const double ymin = deck.ymin + dy * static_cast<double>(static_cast<float>(c.d.y_offset));

  for (Index j = c.x_min - 2; j <= c.x_max + 3; ++j) {
    c.vertexx[j] = xmin + dx * static_cast<double>(static_cast<float>(j - c.x_min));
    c.vertexdx[j] = dx;
  }
  for (Index k = c.y_min - 2; k <= c.y_max + 3; ++k) {
    c.vertexy[k] = ymin + dy * static_cast<double>(static_cast<float>(k - c.y_min));
    c.vertexdy[k] = dy;
  }
  for (Index j = c.x_min - 2; j <= c.x_max + 2; ++j) {
    c.cellx[j] = 0.5 * (c.vertexx[j] + c.vertexx[j + 1]);
    c.celldx[j] = dx;
  }
  for (Index k = c.y_min - 2; k <= c.y_max + 2; ++k) {
    c.celly[k] = 0.5 * (c.vertexy[k] + c.vertexy[k + 1]);
    c.celldy[k] = dy;
  }
  const Rows volume = rows(c.volume), xarea = rows(c.xarea), yarea = rows(c.yarea);
  for (Index k = c.y_min - 2; k <= c.y_max + 2; ++k) {
    for (Index j = c.x_min - 2; j <= c.x_max + 2; ++j) {
      volume[k][j] = dx * dy;
      xarea[k][j] = c.celldy[k];
      yarea[k][j] = c.celldx[j];
    }
  }
}

}  // namespace cloverleaf
