// SPDX-License-Identifier: BSD-3-Clause
// The communication ops: Bcast and Reduce try the fast path first; what it does not take, and
// FetchAndOp always, go to the inner basic SF. End goes wherever its Begin went: the fast path
// knows the operations it has in flight.
#include "fast_path.hpp"
#include "sf_ghostwire.hpp"

namespace gwpetsc {
namespace {

PetscErrorCode bcast_begin(PetscSF sf, MPI_Datatype unit, PetscMemType rootmtype, const void* rootdata,
                           PetscMemType leafmtype, void* leafdata, MPI_Op op) {
  SfData& d = data(sf);
  PetscBool taken = PETSC_FALSE;
  PetscFunctionBegin;
  if (d.fast) PetscCall(d.fast->begin(Direction::bcast, unit, rootmtype, rootdata, leafmtype, leafdata, op, &taken));
  if (!taken) PetscCall(d.inner->ops->BcastBegin(d.inner, unit, rootmtype, rootdata, leafmtype, leafdata, op));
  PetscFunctionReturn(0);
}

PetscErrorCode bcast_end(PetscSF sf, MPI_Datatype unit, const void* rootdata, void* leafdata, MPI_Op op) {
  SfData& d = data(sf);
  PetscBool taken = PETSC_FALSE;
  PetscFunctionBegin;
  if (d.fast) PetscCall(d.fast->end(Direction::bcast, unit, rootdata, leafdata, op, &taken));
  if (!taken) PetscCall(d.inner->ops->BcastEnd(d.inner, unit, rootdata, leafdata, op));
  PetscFunctionReturn(0);
}

PetscErrorCode reduce_begin(PetscSF sf, MPI_Datatype unit, PetscMemType leafmtype, const void* leafdata,
                            PetscMemType rootmtype, void* rootdata, MPI_Op op) {
  SfData& d = data(sf);
  PetscBool taken = PETSC_FALSE;
  PetscFunctionBegin;
  if (d.fast) PetscCall(d.fast->begin(Direction::reduce, unit, rootmtype, rootdata, leafmtype, leafdata, op, &taken));
  if (!taken) PetscCall(d.inner->ops->ReduceBegin(d.inner, unit, leafmtype, leafdata, rootmtype, rootdata, op));
  PetscFunctionReturn(0);
}

PetscErrorCode reduce_end(PetscSF sf, MPI_Datatype unit, const void* leafdata, void* rootdata, MPI_Op op) {
  SfData& d = data(sf);
  PetscBool taken = PETSC_FALSE;
  PetscFunctionBegin;
  if (d.fast) PetscCall(d.fast->end(Direction::reduce, unit, rootdata, leafdata, op, &taken));
  if (!taken) PetscCall(d.inner->ops->ReduceEnd(d.inner, unit, leafdata, rootdata, op));
  PetscFunctionReturn(0);
}

PetscErrorCode fetch_and_op_begin(PetscSF sf, MPI_Datatype unit, PetscMemType rootmtype, void* rootdata,
                                  PetscMemType leafmtype, const void* leafdata, void* leafupdate, MPI_Op op) {
  SfData& d = data(sf);
  PetscFunctionBegin;
  PetscCall(d.inner->ops->FetchAndOpBegin(d.inner, unit, rootmtype, rootdata, leafmtype, leafdata, leafupdate, op));
  PetscFunctionReturn(0);
}

PetscErrorCode fetch_and_op_end(PetscSF sf, MPI_Datatype unit, void* rootdata, const void* leafdata, void* leafupdate,
                                MPI_Op op) {
  SfData& d = data(sf);
  PetscFunctionBegin;
  PetscCall(d.inner->ops->FetchAndOpEnd(d.inner, unit, rootdata, leafdata, leafupdate, op));
  PetscFunctionReturn(0);
}

}  // namespace

void set_communication_ops(PetscSF sf) {
  sf->ops->BcastBegin = bcast_begin;
  sf->ops->BcastEnd = bcast_end;
  sf->ops->ReduceBegin = reduce_begin;
  sf->ops->ReduceEnd = reduce_end;
  sf->ops->FetchAndOpBegin = fetch_and_op_begin;
  sf->ops->FetchAndOpEnd = fetch_and_op_end;
}

}  // namespace gwpetsc
