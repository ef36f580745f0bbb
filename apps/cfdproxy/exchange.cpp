#include "exchange.hpp"

#include <stdexcept>

namespace cfdproxy {

std::unique_ptr<Exchange> make_mpi_exchange(ghostwire::World& world, const LocalDomain& d, Fields& fields);
std::unique_ptr<Exchange> make_gw_exchange(ghostwire::World& world, const LocalDomain& d, Fields& fields);

namespace {

class NoExchange final : public Exchange {
 public:
  void begin() override {}
  void after_colour(std::size_t) override {}
  void complete() override {}
};

}  // namespace

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
  if (variant == "mpi") return make_mpi_exchange(world, d, fields);
  if (variant == "gw") return make_gw_exchange(world, d, fields);
  if (variant == "commfree") return std::make_unique<NoExchange>();
  throw std::invalid_argument("unknown variant '" + variant + "'");
}

}  // namespace cfdproxy
