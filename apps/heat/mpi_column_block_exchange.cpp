// SPDX-License-Identifier: BSD-3-Clause
// ColumnBlockExchange (mpi_column_block_exchange.hpp): the mpi-nbuffer variants' tiles with their
// waits, sends and receives posted a sweep ahead (see docs/heat.md, "The variants").
#include "mpi_column_block_exchange.hpp"

#include "tile_kernel.hpp"

namespace heat {

ColumnBlockExchange::ColumnBlockExchange(const Decomposition& d, MPI_Comm comm, Band& band,
                                         int timesteps)
    : d_(d),
      comm_(comm),
      band_(band),
      timesteps_(timesteps),
      tag_(comm),
      upper_(d.tile_cols, {MPI_REQUEST_NULL, MPI_REQUEST_NULL}),
      lower_(d.tile_cols, {MPI_REQUEST_NULL, MPI_REQUEST_NULL}) {
  // The first sweep's lower halo is the lower rank's initial first row, already in place.
  if (d_.has_upper() && timesteps_ > 0) {
    for (int j = 0; j < d_.tile_cols; ++j) {
      MPI_Irecv(column_block(band_.upper_halo(), j), d_.by, MPI_DOUBLE, d_.upper(), tag_(j), comm_,
                &upper_[j][receive]);
    }
  }
}

void ColumnBlockExchange::relax_tile(int tile_row, int tile_col, int t) {
  const bool top = tile_row == 0 && d_.has_upper();
  const bool bottom = tile_row == d_.tile_rows - 1 && d_.has_lower();
  if (!top && !bottom) {
    heat::relax_tile(band_, d_, tile_row, tile_col);
    return;
  }
  int relaxed = 0;  // rows of the tile done
  if (top) {
    wait_upper(tile_col);
    if (bottom && d_.bx == 1) wait_lower(tile_col);  // the first row is also the last
    relax_tile_rows(band_, d_, tile_row, tile_col, 0, 1);
    relaxed = 1;
    first_row_done(tile_col, t);  // sent while the rest of the tile is relaxed
  }
  if (bottom) {
    if (relaxed < d_.bx) {
      relax_tile_rows(band_, d_, tile_row, tile_col, relaxed, d_.bx - 1 - relaxed);
      wait_lower(tile_col);
      relax_tile_rows(band_, d_, tile_row, tile_col, d_.bx - 1, 1);
    }
    last_row_done(tile_col, t);
  } else {
    relax_tile_rows(band_, d_, tile_row, tile_col, relaxed, d_.bx - relaxed);
  }
}

void ColumnBlockExchange::relax_column_block(int j, int t) {
  const int last = d_.band_rows;  // band rows 1..last
  int next = 1;                   // the next row to relax
  if (d_.has_upper()) {
    wait_upper(j);
    if (d_.has_lower() && last == 1) wait_lower(j);  // the first row is also the last
    relax_column_block_rows(band_, d_, j, 1, 1);
    first_row_done(j, t);
    next = 2;
  }
  if (d_.has_lower()) {
    if (next <= last) {
      relax_column_block_rows(band_, d_, j, next, last - 1);
      wait_lower(j);
      relax_column_block_rows(band_, d_, j, last, last);
    }
    last_row_done(j, t);
  } else {
    relax_column_block_rows(band_, d_, j, next, last);
  }
}

void ColumnBlockExchange::wait_upper(int j) {
  MPI_Waitall(2, upper_[j].data(), MPI_STATUSES_IGNORE);
}

void ColumnBlockExchange::wait_lower(int j) {
  MPI_Waitall(2, lower_[j].data(), MPI_STATUSES_IGNORE);
}

void ColumnBlockExchange::first_row_done(int j, int t) {
  if (t + 1 >= timesteps_) return;  // nobody reads my first row after the last sweep
  // The upper rank reads it in sweep t+1; my sweep t+1 reads the upper halo refilled meanwhile.
  MPI_Isend(column_block(band_.first_owned(), j), d_.by, MPI_DOUBLE, d_.upper(), tag_(j), comm_,
            &upper_[j][send]);
  MPI_Irecv(column_block(band_.upper_halo(), j), d_.by, MPI_DOUBLE, d_.upper(), tag_(j), comm_,
            &upper_[j][receive]);
}

void ColumnBlockExchange::last_row_done(int j, int t) {
  // The lower rank reads my last row in this sweep, so it is sent even after the last one.
  MPI_Isend(column_block(band_.last_owned(), j), d_.by, MPI_DOUBLE, d_.lower(), tag_(j), comm_,
            &lower_[j][send]);
  if (t + 1 < timesteps_) {
    MPI_Irecv(column_block(band_.lower_halo(), j), d_.by, MPI_DOUBLE, d_.lower(), tag_(j), comm_,
              &lower_[j][receive]);
  }
}

void ColumnBlockExchange::finish() {
  for (auto* requests : {&upper_, &lower_}) {
    for (auto& pair : *requests) MPI_Waitall(2, pair.data(), MPI_STATUSES_IGNORE);
  }
}

}  // namespace heat
