// SPDX-License-Identifier: BSD-3-Clause
// Variant: the only part of gw-minighost that differs between the MPI baseline, ghostwire and the
// communication-free run: where the variables live and how their ghost layers are filled. The
// kernels, flux accounting, spikes, conservation checks, reports and command line are shared
// (simulation.cpp drives a Variant), so a comparison of variants measures their communication
// only: the halo exchange and the global sums of the conservation check.
//
// Adding a variant is one file: define a class derived from Variant and register a factory at
// namespace scope,
//   const VariantRegistration registration{"gw", "ghostwire Grid<double,3> with update_halo", make};
// and list the file in CMakeLists.txt (variant_gw.cpp is already picked up there when it exists).
//
// See docs/minighost.md, "Code: what is shared, what a variant supplies".
#pragma once

#include <mpi.h>

#include <memory>
#include <span>
#include <string>

#include "../common/named_registry.hpp"
#include "decomposition.hpp"
#include "field_view.hpp"
#include "problem_kinds.hpp"

namespace minighost {

struct VariantSetup {
  MPI_Comm comm;                        // the job's ranks (a duplicate: traffic never mixes with the app's)
  const Decomposition* decomposition;   // process grid, this rank's block and neighbours
  int num_vars;
  HaloShape halo_shape;                 // faces only (5, 7 points) or with edges and corners (9, 27)
  CommMethod comm_method;               // tells which of the two exchanges below will be called
};

class Variant {
 public:
  virtual ~Variant() = default;

  // Storage of variable `variable` (0-based) with a 1-deep ghost layer, x contiguous. It must start
  // all zero, stay at the same address for the whole run, and ghost cells on the physical boundary
  // must stay 0 (Dirichlet): exchanges only write ghost cells that face another rank.
  virtual FieldView variable(int variable) = 0;

  // BSPMA: fill the ghost layers of all variables from the neighbours, one message per neighbour
  // (per phase) carrying every variable. Collective over the job.
  virtual void exchange_all_variables() = 0;

  // SVAF: fill the ghost layer of one variable. Collective; every rank passes the same variable.
  virtual void exchange_variable(int variable) = 0;

  // False when ghost cells facing other ranks are never filled (commfree): the run then measures
  // computation only and its conservation cannot hold, so it is reported but not enforced.
  virtual bool fills_halos() const { return true; }

  // The conservation check's global sums (collective; the same bits on every rank), element-wise
  // and in place, split in two: the simulation starts them after a step and finishes them after
  // the next step's halo exchange, so a split-phase reduction lets the ranks meet once per step,
  // not twice. `values` stays untouched in between. By default a blocking MPI_Allreduce at the
  // start: MPI_Iallreduce finished after the exchange measured slower with Open MPI 4.1 (its
  // progress costs more than the wait it hides; docs/minighost.md, "Code: what is shared, what a
  // variant supplies").
  virtual void start_global_sum(std::span<double> values, MPI_Comm comm) {
    MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_SUM, comm);
  }
  virtual void finish_global_sum() {}
};

using VariantFactory = std::unique_ptr<Variant> (*)(const VariantSetup& setup);

// A variant as the registry holds it (apps/common/named_registry.hpp); listed by name.
struct RegisteredVariant {
  std::string name;
  std::string description;  // its line in --help
  VariantFactory factory;
};
using VariantRegistry = ghostwire_programs::NamedRegistry<RegisteredVariant>;
// Registers a variant under its name while static objects are constructed.
using VariantRegistration = ghostwire_programs::Registration<RegisteredVariant>;

// Throws UsageError listing the available variants if `name` is not one of them.
std::unique_ptr<Variant> make_variant(const std::string& name, const VariantSetup& setup);

}  // namespace minighost
