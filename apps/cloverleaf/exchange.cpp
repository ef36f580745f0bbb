// SPDX-License-Identifier: BSD-3-Clause
// make_exchange: an exchange by its --exchange name, from the exchanges registered in this build
// (exchange.hpp; docs/cloverleaf.md, "Exchange variants").
#include "exchange.hpp"

#include "usage_error.hpp"

namespace cloverleaf {

void check_exchange_name(const std::string& name) {
  const ExchangeRegistry& registry = ExchangeRegistry::instance();
  if (!registry.find(name))
    throw UsageError("--exchange '" + name + "': unknown exchange; expected one of " + registry.names());
}

std::unique_ptr<Exchange> make_exchange(const std::string& name, const ExchangeSetup& setup) {
  check_exchange_name(name);
  return ExchangeRegistry::instance().find(name)->factory(setup);
}

}  // namespace cloverleaf
