// SPDX-License-Identifier: BSD-3-Clause
// The reference's schedule on a ghostwire plan: one slot per partner, whose send layout is the
// partner's send points (an index list of 168-byte gradient rows) and whose receive layout is the
// partner's contiguous run of ghost points. send() as soon as the points are final, by the thread
// that finishes the last of them; between node peers the partner then copies the rows straight
// out of this rank's gradients (one copy). Different threads drive different slots; with several
// threads main initialises MPI with MPI_THREAD_MULTIPLE, which the plan needs for that.
//
// See docs/cfdproxy.md, "The variants".
#include "exchange.hpp"

namespace cfdproxy {
namespace {

std::vector<int> partner_ranks(const LocalDomain& d) {
  std::vector<int> ranks;
  for (const Partner& p : d.partners) ranks.push_back(p.rank);
  return ranks;
}

class GwExchange final : public Exchange {
 public:
  explicit GwExchange(const ExchangeContext& c)
      : d_(c.domain), plan_(c.world, partner_ranks(c.domain), 1), schedule_(c.domain) {
    ghostwire::Region grad = plan_.add_memory(c.fields.grad_segment, gradient_values * sizeof(double));
    for (const Partner& p : d_.partners) {
      std::vector<std::size_t> rows(p.send_points.begin(), p.send_points.end());
      plan_.add_send(0, p.rank, grad, ghostwire::Layout::indices(std::move(rows)));
      plan_.add_receive(0, p.rank, grad,
                        ghostwire::Layout::contiguous(static_cast<std::size_t>(p.halo_begin),
                                                      static_cast<std::size_t>(p.halo_count)));
    }
    plan_.commit();
  }

  // The gradient rewrites the send points from its first colour on: the partners must have read
  // the last message.
  void begin() override {
    for (const Partner& p : d_.partners) plan_.wait_send(0, p.rank);
    schedule_.reset();
    for (std::size_t i : schedule_.without_senders()) plan_.send(0, d_.partners[i].rank);
  }

  void after_colour(int thread, std::size_t colour) override {
    schedule_.after_colour(thread, colour, [this](std::size_t i) { plan_.send(0, d_.partners[i].rank); });
  }

  // Whatever has arrived is copied first; then the rest, in partner order.
  void complete() override {
    pending_.clear();
    for (const Partner& p : d_.partners)
      if (!plan_.test_recv(0, p.rank)) pending_.push_back(p.rank);
    for (int rank : pending_) plan_.wait_recv(0, rank);
  }

 private:
  const LocalDomain& d_;
  ghostwire::Plan plan_;
  SendSchedule schedule_;
  std::vector<int> pending_;  // kept: complete() runs every iteration
};

std::unique_ptr<Exchange> make(const ExchangeContext& context) { return std::make_unique<GwExchange>(context); }

const ExchangeRegistration registration{"gw", 1, make};

}  // namespace
}  // namespace cfdproxy
