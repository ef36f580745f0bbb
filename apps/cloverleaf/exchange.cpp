#include "exchange.hpp"

#include "named_registry.hpp"
#include "usage_error.hpp"

namespace cloverleaf {
namespace {

NamedRegistry<ExchangeFactory>& registry() {
  static NamedRegistry<ExchangeFactory> exchanges;
  return exchanges;
}

}  // namespace

ExchangeRegistration::ExchangeRegistration(const char* name, const char* description, ExchangeFactory factory) {
  registry().add(name, description, factory);
}

std::vector<ExchangeInfo> available_exchanges() {
  std::vector<ExchangeInfo> list;
  for (const auto& e : registry().list()) list.push_back({e.name, e.description});
  return list;
}

void check_exchange_name(const std::string& name) {
  if (!registry().find(name))
    throw UsageError("--exchange '" + name + "': unknown exchange; expected one of " + registry().names());
}

std::unique_ptr<Exchange> make_exchange(const std::string& name, const ExchangeSetup& setup) {
  check_exchange_name(name);
  return (*registry().find(name))(setup);
}

}  // namespace cloverleaf
