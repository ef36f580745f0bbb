// SPDX-License-Identifier: BSD-3-Clause
// make_variant: a variant by its --variant name, from the variants registered in this build
// (variant.hpp; docs/minighost.md, "Code: what is shared, what a variant supplies").
#include "variant.hpp"

#include "usage_error.hpp"

namespace minighost {

std::unique_ptr<Variant> make_variant(const std::string& name, const VariantSetup& setup) {
  const VariantRegistry& registry = VariantRegistry::instance();
  const RegisteredVariant* variant = registry.find(name);
  if (!variant) {
    std::string message = "--variant '" + name + "': unknown variant; expected one of " + registry.names();
    if (name == "gw") message += " (the gw variant needs ghostwire's Grid layer and is not in this build yet)";
    throw UsageError(message);
  }
  return variant->factory(setup);
}

}  // namespace minighost
