// SPDX-License-Identifier: BSD-3-Clause
// The reference's exchange: receives posted before the gradient, each partner's send points packed
// into its buffer and sent (Isend) as soon as they are final, then Waitall, unpack, Waitall.
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
  MpiExchange(ghostwire::World& world, const LocalDomain& d, Fields& fields)
      : d_(d), fields_(fields), comm_(world.comm()), ready_(partners_ready_after_colours(d)) {
    for (const Partner& p : d.partners) {
      send_buffers_.emplace_back(p.send_points.size() * gradient_values);
      receive_buffers_.emplace_back(static_cast<std::size_t>(p.halo_count) * gradient_values);
    }
    receives_.assign(d.partners.size(), MPI_REQUEST_NULL);
    sends_.assign(d.partners.size(), MPI_REQUEST_NULL);
  }

  void begin() override {
    for (std::size_t i = 0; i < d_.partners.size(); ++i)
      check(MPI_Irecv(receive_buffers_[i].data(), static_cast<int>(receive_buffers_[i].size()), MPI_DOUBLE,
                      d_.partners[i].rank, gradient_tag, comm_, &receives_[i]),
            "MPI_Irecv");
  }

  void after_colour(std::size_t colour) override {
    for (std::size_t i : ready_[colour]) {
      double* out = send_buffers_[i].data();
      for (std::int32_t p : d_.partners[i].send_points) {
        std::memcpy(out, fields_.grad + static_cast<std::size_t>(p) * gradient_values, gradient_values * sizeof(double));
        out += gradient_values;
      }
      check(MPI_Isend(send_buffers_[i].data(), static_cast<int>(send_buffers_[i].size()), MPI_DOUBLE,
                      d_.partners[i].rank, gradient_tag, comm_, &sends_[i]),
            "MPI_Isend");
    }
  }

  void complete() override {
    check(MPI_Waitall(static_cast<int>(receives_.size()), receives_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    for (std::size_t i = 0; i < d_.partners.size(); ++i)
      std::memcpy(fields_.grad + static_cast<std::size_t>(d_.partners[i].halo_begin) * gradient_values,
                  receive_buffers_[i].data(), receive_buffers_[i].size() * sizeof(double));
    check(MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

 private:
  const LocalDomain& d_;
  Fields& fields_;
  MPI_Comm comm_;
  std::vector<std::vector<std::size_t>> ready_;
  std::vector<std::vector<double>> send_buffers_, receive_buffers_;
  std::vector<MPI_Request> receives_, sends_;
};

std::unique_ptr<Exchange> make(ghostwire::World& world, const LocalDomain& d, Fields& fields) {
  return std::make_unique<MpiExchange>(world, d, fields);
}

const ExchangeRegistration registration{"mpi", 2, make};

}  // namespace
}  // namespace cfdproxy
