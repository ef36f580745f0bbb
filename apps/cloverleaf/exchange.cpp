#include "exchange.hpp"

#include <map>

#include "usage_error.hpp"

namespace cloverleaf {
namespace {

struct Entry {
  std::string description;
  ExchangeFactory factory;
};

// A function-local static: registrations run during the static initialisation of other files, in
// an order we do not control, so the map must exist before the first of them.
std::map<std::string, Entry>& registry() {
  static std::map<std::string, Entry> entries;
  return entries;
}

}  // namespace

ExchangeRegistration::ExchangeRegistration(const char* name, const char* description, ExchangeFactory factory) {
  registry()[name] = Entry{description, factory};
}

std::vector<ExchangeInfo> available_exchanges() {
  std::vector<ExchangeInfo> list;
  for (const auto& [name, entry] : registry()) list.push_back({name, entry.description});
  return list;
}

void check_exchange_name(const std::string& name) {
  if (registry().count(name)) return;
  std::string known;
  for (const auto& e : available_exchanges()) known += (known.empty() ? "" : ", ") + e.name;
  throw UsageError("--exchange '" + name + "': unknown exchange; expected one of " + known);
}

std::unique_ptr<Exchange> make_exchange(const std::string& name, const ExchangeSetup& setup) {
  check_exchange_name(name);
  return registry().at(name).factory(setup);
}

}  // namespace cloverleaf
