// SPDX-License-Identifier: BSD-3-Clause
// The reference's exchange: receives posted before the gradient, each partner's send points packed
// into its buffer and sent (Isend) as soon as they are final, by the thread that finishes the last
// of them (as the reference's threaded solver does), then Waitall, unpack, Waitall. With several
// threads MPI is called from all of them: main asks for MPI_THREAD_MULTIPLE.
// See docs/cfdproxy.md, "The variants".
#include <mpi.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "exchange.hpp"

namespace cfdproxy {
namespace {

constexpr int gradient_tag = 4712;

void check(int status, const char* call) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string(call) + " failed with MPI error " + std::to_string(status));
}

class MpiExchange final : public Exchange {
 public:
  explicit MpiExchange(const ExchangeContext& c)
      : d_(c.domain), fields_(c.fields), comm_(c.world.comm()), schedule_(c.domain) {
    for (const Partner& p : d_.partners) {
      send_buffers_.emplace_back(p.send_points.size() * gradient_values);
      receive_buffers_.emplace_back(static_cast<std::size_t>(p.halo_count) * gradient_values);
    }
    receives_.assign(d_.partners.size(), MPI_REQUEST_NULL);
    sends_.assign(d_.partners.size(), MPI_REQUEST_NULL);
  }

  void begin() override {
    for (std::size_t i = 0; i < d_.partners.size(); ++i)
      check(MPI_Irecv(receive_buffers_[i].data(), static_cast<int>(receive_buffers_[i].size()), MPI_DOUBLE,
                      d_.partners[i].rank, gradient_tag, comm_, &receives_[i]),
            "MPI_Irecv");
    schedule_.reset();
    for (std::size_t i : schedule_.without_senders()) send(i);
  }

  void after_colour(int thread, std::size_t colour) override {
    schedule_.after_colour(thread, colour, [this](std::size_t i) { send(i); });
  }

  void complete() override {
    check(MPI_Waitall(static_cast<int>(receives_.size()), receives_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    for (std::size_t i = 0; i < d_.partners.size(); ++i)
      std::memcpy(fields_.grad + static_cast<std::size_t>(d_.partners[i].halo_begin) * gradient_values,
                  receive_buffers_[i].data(), receive_buffers_[i].size() * sizeof(double));
    check(MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

 private:
  // Partner i's message: its send points packed in its halo order, sent. One thread per partner
  // and gradient (SendSchedule), so sends_[i] and the buffer are this thread's alone meanwhile.
  void send(std::size_t i) {
    double* out = send_buffers_[i].data();
    for (std::int32_t p : d_.partners[i].send_points) {
      std::memcpy(out, fields_.grad + static_cast<std::size_t>(p) * gradient_values, gradient_values * sizeof(double));
      out += gradient_values;
    }
    check(MPI_Isend(send_buffers_[i].data(), static_cast<int>(send_buffers_[i].size()), MPI_DOUBLE,
                    d_.partners[i].rank, gradient_tag, comm_, &sends_[i]),
          "MPI_Isend");
  }

  const LocalDomain& d_;
  Fields& fields_;
  MPI_Comm comm_;
  SendSchedule schedule_;
  std::vector<std::vector<double>> send_buffers_, receive_buffers_;
  std::vector<MPI_Request> receives_, sends_;
};

std::unique_ptr<Exchange> make(const ExchangeContext& context) { return std::make_unique<MpiExchange>(context); }

const ExchangeRegistration registration{"mpi", 2, make};

}  // namespace
}  // namespace cfdproxy
