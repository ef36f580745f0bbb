// SPDX-License-Identifier: BSD-3-Clause
// gather_field: every rank's owned rows, with the boundary, on rank 0 in global row order, for the
// checksums and the image (see docs/heat.md, "Output").
#include "field_gather.hpp"

#include <algorithm>

namespace heat {

std::vector<double> gather_field(const Band& band, const Decomposition& d, MPI_Comm comm) {
  const int width = d.cols + 2;
  // Counted in rows so that no count overflows an int however large the grid.
  MPI_Datatype row_type = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(width, MPI_DOUBLE, &row_type);
  MPI_Type_commit(&row_type);

  // The band's rows are padded (band.hpp): the owned rows are a vector of rows, one stride apart.
  // (Not a row type resized to the stride: Open MPI 4.1.4 then loses part of the root's last row
  // in its local copy.)
  MPI_Datatype owned_rows = MPI_DATATYPE_NULL;
  MPI_Type_vector(d.band_rows, width, static_cast<int>(band.stride()), MPI_DOUBLE, &owned_rows);
  MPI_Type_commit(&owned_rows);

  std::vector<double> field;
  if (d.rank == 0) field.resize(static_cast<std::size_t>(d.rows + 2) * static_cast<std::size_t>(width));
  MPI_Gather(band.row(1), 1, owned_rows, d.rank == 0 ? field.data() + width : nullptr, d.band_rows, row_type, 0,
             comm);

  const int last = d.ranks - 1;
  double* bottom = d.rank == 0 ? field.data() + static_cast<std::size_t>(d.rows + 1) * width : nullptr;
  if (d.rank == 0) std::copy_n(band.row(0), width, field.data());
  if (last == 0) {
    std::copy_n(band.row(d.band_rows + 1), width, bottom);
  } else if (d.rank == last) {
    MPI_Send(band.row(d.band_rows + 1), 1, row_type, 0, 0, comm);
  } else if (d.rank == 0) {
    MPI_Recv(bottom, 1, row_type, last, 0, comm, MPI_STATUS_IGNORE);
  }
  MPI_Type_free(&owned_rows);
  MPI_Type_free(&row_type);
  return field;
}

}  // namespace heat
