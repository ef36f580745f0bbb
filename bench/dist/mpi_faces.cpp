// SPDX-License-Identifier: BSD-3-Clause
#include "variants.hpp"

namespace distbench {

MpiFaces::MpiFaces(MPI_Comm comm, const ghostwire::Pattern<2>& pattern, Index padded, Index first_column) {
  int dims[2] = {pattern.team().extent(0), pattern.team().extent(1)}, periods[2] = {1, 1};
  MPI_Cart_create(comm, 2, dims, periods, 0, &cart);
  int rank = 0;
  MPI_Comm_rank(cart, &rank);
  auto e = pattern.local_extents(rank);
  extent[0] = e[0];
  extent[1] = e[1];
  padded_columns = padded > 0 ? padded : e[1] + 2;
  MPI_Cart_shift(cart, 0, 1, &neighbour[0], &neighbour[1]);
  MPI_Cart_shift(cart, 1, 1, &neighbour[2], &neighbour[3]);
  int sizes[2] = {static_cast<int>(e[0] + 2), static_cast<int>(padded_columns)};
  int rows[2] = {1, static_cast<int>(e[1])}, columns[2] = {static_cast<int>(e[0]), 1};
  // Owned cells: rows [1, e0], columns [c, c + e1).
  const int c = static_cast<int>(first_column), last = c + static_cast<int>(e[1]) - 1;
  int send_start[4][2] = {{1, c}, {static_cast<int>(e[0]), c}, {1, c}, {1, last}};
  int receive_start[4][2] = {{0, c}, {static_cast<int>(e[0]) + 1, c}, {1, c - 1}, {1, last + 1}};
  for (int k = 0; k < 4; ++k) {
    int* sub = k < 2 ? rows : columns;
    MPI_Type_create_subarray(2, sizes, sub, send_start[k], MPI_ORDER_C, MPI_DOUBLE, &send[k]);
    MPI_Type_create_subarray(2, sizes, sub, receive_start[k], MPI_ORDER_C, MPI_DOUBLE, &receive[k]);
    MPI_Type_commit(&send[k]);
    MPI_Type_commit(&receive[k]);
  }
}

MpiFaces::~MpiFaces() {
  for (int k = 0; k < 4; ++k) {
    MPI_Type_free(&send[k]);
    MPI_Type_free(&receive[k]);
  }
  MPI_Comm_free(&cart);
}

// A message travelling towards side k carries tag k; the ghosts on side k come from the neighbour
// there, whose message travels towards the opposite side.
void MpiFaces::start(double* base, MPI_Request* requests) const {
  static constexpr int opposite[4] = {1, 0, 3, 2};
  for (int k = 0; k < 4; ++k)
    MPI_Irecv(base, 1, receive[k], neighbour[k], opposite[k], cart, &requests[k]);
  for (int k = 0; k < 4; ++k) MPI_Isend(base, 1, send[k], neighbour[k], k, cart, &requests[4 + k]);
}

}  // namespace distbench
