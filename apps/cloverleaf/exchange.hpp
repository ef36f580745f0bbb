// SPDX-License-Identifier: BSD-3-Clause
// Exchange: how the ghost cells a chunk shares with its neighbouring chunks are filled. Everything
// else is common code (the kernels, the reflective boundaries at the mesh's edge, the --sync
// barrier, the timers), so a comparison of exchanges measures the exchange alone.
//
// update_halo(fields, depth) is the reference's update_halo without the physical boundary: for each
// field of `fields`, the ghost rows and columns within `depth` (1 or 2) of every face the chunk
// shares with another chunk, corners included, get the owner's current values, as the reference's
// clover_exchange leaves them (for the layout per mesh position see chunk.hpp: the extra high node
// column and row of vertex and face fields are the chunk's own and are not received). It is
// collective over the job, and when it returns the ghosts must be filled and this rank's cells
// free to change. An exchange may fill more ghost cells than asked (deeper, or the whole halo of a
// Grid), provided they get the owners' current values: no kernel reads ghosts it did not ask for,
// and the shared node columns are computed bit-identically by both chunks.
//
// One part of it a plain Grid::update_halo does not do: at the mesh's top edge, the vertex and
// y-face fields' edge row (local index ny, which is the Grid's first ghost row, outside the cells)
// in the ghost columns shared with a left or right neighbour, and at the right edge the vertex and
// x-face fields' edge column (local nx) in the ghost rows shared with a neighbour below or above.
// Those lie beyond the Grid's extents, so Boundary::open never fills them, and the reflective
// boundary does not write them either; the kernels read them (advection at the edge). The mpi
// exchange's rows and columns span them. With Grid::update_halo alone the shapes deck on 3 ranks
// drifts from the reference, while 96x96 hides it (docs/cloverleaf.md, "Exchange variants").
//
// Adding a variant is one file: derive from Exchange and register a factory at namespace scope,
//   const ExchangeRegistration registration{"gw-grid", "Grid::update_halo, one HaloUpdate per call", make};
// and list the file in apps/cloverleaf/CMakeLists.txt. --exchange NAME picks it.
//
// See docs/cloverleaf.md, "Exchange variants".
#pragma once

#include <mpi.h>

#include <memory>
#include <span>
#include <string>

#include <ghostwire/world.hpp>

#include "../common/named_registry.hpp"
#include "chunk.hpp"
#include "fields.hpp"

namespace cloverleaf {

struct ExchangeSetup {
  ghostwire::World& world;  // the job's ranks, as ghostwire sees them (the Grids were built on it)
  MPI_Comm comm;            // the app's communicator (a duplicate of MPI_COMM_WORLD)
  Chunk& chunk;             // this rank's fields and its neighbours (chunk.d)
};

class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual void update_halo(FieldMask fields, int depth) = 0;
  // --sync global: called after every update_halo. A barrier of all ranks; a variant whose transport
  // needs serving while it waits may use its own (ghostwire's World::barrier).
  virtual void barrier() = 0;
  // The timestep's global minimum: `all` (ranks x mine.size()) gets every rank's `mine`, in rank
  // order, on every rank. Collective. A variant gathers with its own runtime, as it synchronises.
  virtual void allgather(std::span<const double> mine, std::span<double> all) = 0;
};

// allgather on ghostwire's allreduce (shared memory inside a node, no MPI round trip): each rank
// adds its values into its own slot of -0.0s. Exact: -0.0 + x == x bit for bit, for every x.
void allgather_by_allreduce(ghostwire::World& world, std::span<const double> mine, std::span<double> all);
// allgather by MPI_Allgather on `comm`, as the reference gathers.
void allgather_by_mpi(MPI_Comm comm, std::span<const double> mine, std::span<double> all);

using ExchangeFactory = std::unique_ptr<Exchange> (*)(const ExchangeSetup& setup);

// An exchange as the registry holds it (apps/common/named_registry.hpp); listed by name.
struct RegisteredExchange {
  std::string name;
  std::string description;  // its line in --help
  ExchangeFactory factory;
};
using ExchangeRegistry = ghostwire_programs::NamedRegistry<RegisteredExchange>;
// Registers an exchange under its name while static objects are constructed.
using ExchangeRegistration = ghostwire_programs::Registration<RegisteredExchange>;

// Throws UsageError listing the available exchanges if `name` is not one of them.
std::unique_ptr<Exchange> make_exchange(const std::string& name, const ExchangeSetup& setup);
// Throws UsageError as make_exchange does, without building anything.
void check_exchange_name(const std::string& name);

}  // namespace cloverleaf
