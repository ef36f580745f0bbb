// SPDX-License-Identifier: BSD-3-Clause
// commfree: the kernels without any exchange, so its time is theirs alone and the difference to
// another variant is what that variant's exchange costs. Ghost gradients stay partial sums, so its
// checksums are not the solution's (docs/cfdproxy.md, "The variants").
#include "exchange.hpp"

namespace cfdproxy {
namespace {

class NoExchange final : public Exchange {
 public:
  void begin() override {}
  void after_colour(int, std::size_t) override {}
  void complete() override {}
};

std::unique_ptr<Exchange> make(const ExchangeContext&) { return std::make_unique<NoExchange>(); }

// No MPI call from the threads: it runs at any MPI thread level.
const ExchangeRegistration registration{"commfree", 3, make, false};

}  // namespace
}  // namespace cfdproxy
