#include "variant.hpp"

#include <map>

#include "usage_error.hpp"

namespace minighost {
namespace {

struct Entry {
  std::string description;
  VariantFactory factory;
};

// A function-local static: registrations run during static initialisation of other files, in an
// order we do not control, so the map must exist before the first of them.
std::map<std::string, Entry>& registry() {
  static std::map<std::string, Entry> entries;
  return entries;
}

}  // namespace

VariantRegistration::VariantRegistration(const char* name, const char* description, VariantFactory factory) {
  registry()[name] = Entry{description, factory};
}

std::vector<VariantInfo> available_variants() {
  std::vector<VariantInfo> variants;
  for (const auto& [name, entry] : registry()) variants.push_back({name, entry.description});
  return variants;
}

std::unique_ptr<Variant> make_variant(const std::string& name, const VariantSetup& setup) {
  auto entry = registry().find(name);
  if (entry == registry().end()) {
    std::string available;
    for (const auto& known : available_variants()) available += (available.empty() ? "" : ", ") + known.name;
    std::string message = "--variant '" + name + "': unknown variant; expected one of " + available;
    if (name == "gw") message += " (the gw variant needs ghostwire's Grid layer and is not in this build yet)";
    throw UsageError(message);
  }
  return entry->second.factory(setup);
}

}  // namespace minighost
