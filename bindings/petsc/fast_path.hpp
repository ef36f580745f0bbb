// SPDX-License-Identifier: BSD-3-Clause
// The fast path of the PetscSF type "ghostwire": Bcast and Reduce between ranks that share memory
// through ghostwire plans (the halo core's message paths: core_fast_path.hpp) instead of MPI
// messages, the edges between nodes through a basic SF of their own (docs/petsc.md, "How it works").
#pragma once

#include <petsc/private/sfimpl.h>

#include <memory>

namespace gwpetsc {

enum class Direction { bcast, reduce };

class FastPath {
 public:
  // Collective over the SF's communicator, after the inner SF is set up: *fast is null on a
  // communicator of one rank.
  static PetscErrorCode create(PetscSF sf, std::unique_ptr<FastPath>* fast);
  // Collective (frees the plans).
  static PetscErrorCode destroy(std::unique_ptr<FastPath>* fast);

  virtual ~FastPath() = default;
  // Collective: frees the SF of the edges between nodes (the destructor cannot report errors).
  virtual PetscErrorCode destroy_remote() = 0;
  // *taken is false when this operation is not for the fast path (unit, op or memory type it does
  // not handle); the caller then gives it to the inner SF. The same on every rank.
  virtual PetscErrorCode begin(Direction direction, MPI_Datatype unit, PetscMemType rootmtype, const void* rootdata,
                               PetscMemType leafmtype, const void* leafdata, MPI_Op op, PetscBool* taken) = 0;
  // *taken is false when no fast operation with these arguments is in flight.
  virtual PetscErrorCode end(Direction direction, MPI_Datatype unit, const void* rootdata, const void* leafdata,
                             MPI_Op op, PetscBool* taken) = 0;

  // Operations taken and left to the inner SF so far (-info shows them when the SF is reset).
  struct Counts {
    long bcast = 0, reduce = 0, declined = 0, links = 0;
    long staged = 0, read = 0;  // messages to node peers: packed into a Segment, read by cross-memory attach
  };
  virtual Counts counts() const = 0;
  // Whether an operation is between its Begin and its End.
  virtual bool busy() const = 0;
  // Whether some edge joins ranks on different nodes (those go through a basic SF of their own).
  virtual bool crosses_nodes() const = 0;
};

}  // namespace gwpetsc
