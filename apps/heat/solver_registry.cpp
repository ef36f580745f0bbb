// SPDX-License-Identifier: BSD-3-Clause
// The registered variants (each solver_<name>.cpp registers its own; solver.hpp), listed and found
// by their --variant names (docs/heat.md, "Adding a variant").
#include <string>

#include "solver.hpp"
#include "usage_error.hpp"

namespace heat {

std::span<const Variant> variants() { return VariantRegistry::instance().entries(); }

const Variant& find_variant(std::string_view name) {
  const VariantRegistry& registry = VariantRegistry::instance();
  if (const Variant* variant = registry.find(name)) return *variant;
  throw UsageError("unknown variant '" + std::string(name) + "'; expected one of: " + registry.names());
}

}  // namespace heat
