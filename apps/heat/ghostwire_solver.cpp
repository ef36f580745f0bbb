// SPDX-License-Identifier: BSD-3-Clause
// GhostwireSolver (ghostwire_solver.hpp): the World (a malformed GHOSTWIRE_* setting is a
// UsageError on every rank), the idle policy from its settings, and the band in a Segment with its
// column block plan (see docs/heat.md, "The ghostwire variants").
#include "ghostwire_solver.hpp"

#include <ghostwire/error.hpp>

#include "usage_error.hpp"

namespace heat {
namespace {

std::unique_ptr<ghostwire::World> make_world(MPI_Comm comm) {
  try {
    return std::make_unique<ghostwire::World>(comm);
  } catch (const ghostwire::Error& error) {
    // The settings come from the environment, which every rank reads the same way, so every
    // rank fails here together: a user error, not a crash.
    if (error.code() == ghostwire::Errc::invalid_argument) {
      throw UsageError(std::string("ghostwire settings: ") + error.what());
    }
    throw;
  }
}

}  // namespace

GhostwireSolver::GhostwireSolver(const SolverContext& context, std::optional<ColumnBlockPlan::Protocol> protocol)
    : d_(context.decomposition), protocol_(protocol), world_(make_world(context.comm)) {
  idle_policy_.timeout_seconds = world_->settings().timeout_seconds;
  idle_policy_.yield_at_once = world_->oversubscribed();
}

std::span<double> GhostwireSolver::allocate_band(std::size_t element_count) {
  band_memory_ = std::make_unique<ghostwire::Segment>(*world_, element_count * sizeof(double));
  const std::span<double> storage = band_memory_->as<double>().first(element_count);
  if (protocol_ && d_.ranks > 1) {
    // The same layout main lays over this storage (band.hpp: it depends only on the address).
    const Band band(storage, d_.band_rows, d_.cols);
    messages_ = std::make_unique<ColumnBlockPlan>(*world_, *band_memory_, band, d_, *protocol_);
  }
  return storage;
}

}  // namespace heat
