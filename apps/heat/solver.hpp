// SPDX-License-Identifier: BSD-3-Clause
// Solver: one variant of the benchmark, i.e. how a rank runs its band through the sweeps and talks
// to its neighbours. Each variant is one file, solver_<name>.cpp, that registers it (Variant, below);
// everything else (grid, sources, output) is shared (docs/heat.md, "Adding a variant").
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "../common/named_registry.hpp"
#include "band.hpp"
#include "decomposition.hpp"

namespace heat {

struct SolverContext {
  const Decomposition& decomposition;
  MPI_Comm comm;  // MPI_COMM_WORLD: the MPI variants are the plain-MPI baselines
  int threads = 1;  // OpenMP threads of this rank (--threads; 1 for the variants that are not threaded)
};

class Solver {
 public:
  virtual ~Solver() = default;

  // Collective. The band's memory, allocated once before the field is initialised. The default is
  // the heap; a ghostwire variant overrides it to place the band in a segment, so that node peers
  // can copy halos straight out of it. The memory must outlive run().
  virtual std::span<double> allocate_band(std::size_t element_count) {
    heap_band_.assign(element_count, 0.0);
    return heap_band_;
  }

  // Collective: `timesteps` sweeps over `band`. On return the owned rows must be bit-identical to
  // the same rows of the seq variant (except for variants marked result_valid = false), and every
  // message this solver started must be complete.
  virtual void run(Band& band, int timesteps) = 0;

 private:
  std::vector<double> heap_band_;
};

// A variant as the registry holds it (apps/common/named_registry.hpp). Its file registers it:
//   const VariantRegistration registration{Variant{.name = "seq", ..., .create = make}};
struct Variant {
  std::string name;
  std::string description;  // one line for --help
  // Its place in --help, in 'all' and in the names an error lists: the reference (seq) first, then
  // the MPI baselines, the ghostwire variants, the bounds without communication, and the hybrid
  // (MPI + OpenMP) variants.
  int position;
  bool result_valid;      // false: skips communication (commfree), so not seq's bits
  bool single_rank_only;  // seq
  std::unique_ptr<Solver> (*create)(const SolverContext&);
  // Threaded (MPI + OpenMP): runs --threads threads per rank. The others run one.
  bool threaded = false;
  // The MPI thread support it needs with more than one thread (with one, MPI_THREAD_FUNNELED).
  int thread_level = MPI_THREAD_FUNNELED;
};
using VariantRegistry = ghostwire_programs::NamedRegistry<Variant>;
using VariantRegistration = ghostwire_programs::Registration<Variant>;

// Every registered variant, in listing order.
std::span<const Variant> variants();
// Throws UsageError listing the known names.
const Variant& find_variant(std::string_view name);

}  // namespace heat
