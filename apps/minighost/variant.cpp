#include "variant.hpp"

#include "named_registry.hpp"
#include "usage_error.hpp"

namespace minighost {
namespace {

NamedRegistry<VariantFactory>& registry() {
  static NamedRegistry<VariantFactory> variants;
  return variants;
}

}  // namespace

VariantRegistration::VariantRegistration(const char* name, const char* description, VariantFactory factory) {
  registry().add(name, description, factory);
}

std::vector<VariantInfo> available_variants() {
  std::vector<VariantInfo> variants;
  for (const auto& v : registry().list()) variants.push_back({v.name, v.description});
  return variants;
}

std::unique_ptr<Variant> make_variant(const std::string& name, const VariantSetup& setup) {
  const VariantFactory* factory = registry().find(name);
  if (!factory) {
    std::string message = "--variant '" + name + "': unknown variant; expected one of " + registry().names();
    if (name == "gw") message += " (the gw variant needs ghostwire's Grid layer and is not in this build yet)";
    throw UsageError(message);
  }
  return (*factory)(setup);
}

}  // namespace minighost
