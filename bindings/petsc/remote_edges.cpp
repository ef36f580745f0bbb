// SPDX-License-Identifier: BSD-3-Clause
#include "remote_edges.hpp"

namespace gwpetsc {

PetscErrorCode remote_begin(PetscSF remote, Direction direction, MPI_Datatype unit, PetscMemType rootmtype,
                            const void* rootdata, PetscMemType leafmtype, const void* leafdata, MPI_Op op) {
  PetscFunctionBegin;
  if (!remote) PetscFunctionReturn(0);
  if (direction == Direction::bcast)
    PetscCall(PetscSFBcastWithMemTypeBegin(remote, unit, rootmtype, rootdata, leafmtype, const_cast<void*>(leafdata), op));
  else
    PetscCall(PetscSFReduceWithMemTypeBegin(remote, unit, leafmtype, leafdata, rootmtype, const_cast<void*>(rootdata), op));
  PetscFunctionReturn(0);
}

PetscErrorCode remote_end(PetscSF remote, Direction direction, MPI_Datatype unit, const void* rootdata,
                          const void* leafdata, MPI_Op op) {
  PetscFunctionBegin;
  if (!remote) PetscFunctionReturn(0);
  if (direction == Direction::bcast) PetscCall(PetscSFBcastEnd(remote, unit, rootdata, const_cast<void*>(leafdata), op));
  else PetscCall(PetscSFReduceEnd(remote, unit, leafdata, const_cast<void*>(rootdata), op));
  PetscFunctionReturn(0);
}

bool arrays_overlap(const NodeGraph& g, const void* rootdata, const void* leafdata, std::size_t unit_bytes) {
  if (!rootdata || !leafdata) return false;
  const auto* root = static_cast<const std::byte*>(rootdata);
  const auto* leaf = static_cast<const std::byte*>(leafdata);
  return root < leaf + static_cast<std::size_t>(g.leaf_extent) * unit_bytes &&
         leaf < root + static_cast<std::size_t>(g.root_extent) * unit_bytes;
}

}  // namespace gwpetsc
