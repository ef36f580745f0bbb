// SPDX-License-Identifier: BSD-3-Clause
// The non-blocking halo traffic of the mpi-nbuffer variants (the original 08/09 versions), per
// column block j:
//
//   my first row under j  --MPI_Isend-->  upper rank's lower halo, as soon as the row is relaxed
//   my last row under j   --MPI_Isend-->  lower rank's upper halo, as soon as the tile is relaxed
//
// Receives go straight into the halo rows and are posted one sweep ahead, as soon as the sweep no
// longer reads that part of the halo. A rank waits only for what the next row needs: the upper
// halo before the first row of tile (0, j), the lower halo before the last row of the band's last
// tile row, and each time also for the previous send of the row it is about to overwrite.
//
// See docs/heat.md, "The variants".
#pragma once

#include <mpi.h>

#include <array>
#include <vector>

#include "band.hpp"
#include "decomposition.hpp"
#include "mpi_tags.hpp"

namespace heat {

class ColumnBlockExchange {
 public:
  // Posts the receives of the first sweep's upper halo.
  ColumnBlockExchange(const Decomposition& d, MPI_Comm comm, Band& band, int timesteps);
  ColumnBlockExchange(const ColumnBlockExchange&) = delete;
  ColumnBlockExchange& operator=(const ColumnBlockExchange&) = delete;

  // Relaxes tile (tile_row, tile_col) in sweep t with the waits and messages it involves. Tiles
  // may come in any order in which a tile follows its upper and left neighbours, provided the
  // column blocks of the band's first and last tile rows come in ascending order (see mpi_tags.hpp).
  void relax_tile(int tile_row, int tile_col, int t);
  // All tiles of column block j in sweep t, top to bottom: the same waits and messages as
  // relax_tile on each, with everything between the first and the last row as one rectangle.
  void relax_column_block(int tile_col, int t);
  // Whether the tiles of this tile row wait or send (the band's first and last tile rows, when
  // there is a rank above or below). Other tile rows can be relaxed as one rectangle.
  bool communicates(int tile_row) const {
    return (tile_row == 0 && d_.has_upper()) || (tile_row == d_.tile_rows - 1 && d_.has_lower());
  }

  // Waits for every message still in flight (the last sweep's sends).
  void finish();

 private:
  void wait_upper(int tile_col);
  void wait_lower(int tile_col);
  void first_row_done(int tile_col, int t);
  void last_row_done(int tile_col, int t);
  double* column_block(double* row, int tile_col) const { return row + d_.tile_first_col(tile_col); }

  const Decomposition& d_;
  MPI_Comm comm_;
  Band& band_;
  int timesteps_;
  ColumnBlockTags tag_;
  // Per column block and neighbour: {receive of the halo, send of my boundary row}, kept together
  // because they are always waited for together.
  enum { receive = 0, send = 1 };
  std::vector<std::array<MPI_Request, 2>> upper_, lower_;
};

}  // namespace heat
