// SPDX-License-Identifier: BSD-3-Clause
// The variants by name (each registers itself: exchange.hpp), and the colour after which each
// partner's message can leave, which every exchanging variant follows (docs/cfdproxy.md, "How it
// works").
#include "exchange.hpp"

#include <stdexcept>

namespace cfdproxy {

std::vector<std::vector<std::size_t>> partners_ready_after_colours(const LocalDomain& d) {
  std::vector<std::vector<std::size_t>> ready(d.colours.size());
  for (std::size_t i = 0; i < d.partners.size(); ++i) {
    const Partner& p = d.partners[i];
    // A partner I send nothing to (possible only if the halo relation were one-sided) gets its
    // empty message after the first colour.
    std::size_t colour = p.send_after_colour < 0 ? 0 : static_cast<std::size_t>(p.send_after_colour);
    if (!ready.empty()) ready[colour].push_back(i);
  }
  return ready;
}

std::unique_ptr<Exchange> make_exchange(const std::string& variant, ghostwire::World& world, const LocalDomain& d,
                                        Fields& fields) {
  const RegisteredExchange* registered = ExchangeRegistry::instance().find(variant);
  if (!registered) throw std::invalid_argument("unknown variant '" + variant + "'");
  return registered->factory(world, d, fields);
}

}  // namespace cfdproxy
