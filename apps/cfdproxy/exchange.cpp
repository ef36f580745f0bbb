// SPDX-License-Identifier: BSD-3-Clause
// The variants by name (each registers itself: exchange.hpp), and the schedule of every exchanging
// variant: after which colour of which thread each partner's message can leave (docs/cfdproxy.md,
// "How it works" and "Threads and colours").
#include "exchange.hpp"

#include <mpi.h>

#include <stdexcept>

namespace cfdproxy {

SendSchedule::SendSchedule(const LocalDomain& d)
    : ready_(d.shares.size()), senders_(d.partners.size(), 0), remaining_(new Counter[d.partners.size()]) {
  for (std::size_t t = 0; t < d.shares.size(); ++t) ready_[t].resize(d.shares[t].colours.size());
  for (std::size_t i = 0; i < d.partners.size(); ++i) {
    const Partner& p = d.partners[i];
    for (std::size_t t = 0; t < p.send_after_colour.size(); ++t) {
      if (p.send_after_colour[t] < 0) continue;
      ready_[t][static_cast<std::size_t>(p.send_after_colour[t])].push_back(i);
      ++senders_[i];
    }
    if (senders_[i] == 0) without_senders_.push_back(i);
  }
}

void SendSchedule::reset() {
  for (std::size_t i = 0; i < senders_.size(); ++i) remaining_[i].count.store(senders_[i], std::memory_order_relaxed);
}

std::unique_ptr<Exchange> make_exchange(const std::string& variant, const ExchangeContext& context) {
  const RegisteredExchange* registered = ExchangeRegistry::instance().find(variant);
  if (!registered) throw std::invalid_argument("unknown variant '" + variant + "'");
  return registered->factory(context);
}

}  // namespace cfdproxy
