// SPDX-License-Identifier: BSD-3-Clause
// mpi-persistent: persistent requests set up once (MPI_Recv_init / MPI_Send_init on fixed buffers).
// Per exchange: start the receives, pack, start the sends (MPI_Startall each), MPI_Waitall,
// unpack. Starting the receives before packing lets a neighbour's message land while we pack.
// Reverse (--reverse): requests of the transposed messages instead (ghost regions back to their
// owners, into scratch), the same steps, then the owner adds in (neighbour, tag) order.
#include <mpi.h>

#include <memory>

#include "../mpi_call.hpp"
#include "exchanger.hpp"
#include "message_buffers.hpp"
#include "reverse_buffers.hpp"

namespace gwbench::halo {
namespace {

class MpiPersistentExchanger final : public Exchanger {
 public:
  explicit MpiPersistentExchanger(const ExchangerSetup& setup)
      : field_(reinterpret_cast<double*>(setup.shared_field.data())),
        comm_(duplicate_world()),
        buffers_(setup.halo_case, field_) {
    if (setup.direction == Direction::reverse) {
      reverse_ = std::make_unique<ReverseBuffers>(setup.halo_case, field_);
      init_requests(reverse_->receives(), reverse_->sends());
    } else {
      init_requests(buffers_.receives, buffers_.sends);
    }
  }
  ~MpiPersistentExchanger() override {
    for (MPI_Request& r : requests_) MPI_Request_free(&r);
    MPI_Comm_free(&comm_);
  }

  double* field() override { return field_; }

  void exchange() override {
    const int receives = static_cast<int>(buffers_.receives.size()), sends = static_cast<int>(buffers_.sends.size());
    if (receives) mpi_call(MPI_Startall(receives, requests_.data()), "MPI_Startall");
    buffers_.pack();
    if (sends) mpi_call(MPI_Startall(sends, requests_.data() + receives), "MPI_Startall");
    mpi_call(MPI_Waitall(receives + sends, requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    buffers_.unpack();
  }

  void reverse_sum() override {
    const int receives = static_cast<int>(reverse_->receives().size()), sends = static_cast<int>(reverse_->sends().size());
    if (receives) mpi_call(MPI_Startall(receives, requests_.data()), "MPI_Startall");
    reverse_->pack();
    if (sends) mpi_call(MPI_Startall(sends, requests_.data() + receives), "MPI_Startall");
    mpi_call(MPI_Waitall(receives + sends, requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    reverse_->add();
  }

 private:
  void init_requests(const std::vector<PackedMessage>& receives, const std::vector<PackedMessage>& sends) {
    for (const PackedMessage& m : receives) {
      requests_.push_back(MPI_REQUEST_NULL);
      mpi_call(MPI_Recv_init(m.data, m.count, MPI_DOUBLE, m.neighbour, m.tag, comm_, &requests_.back()),
               "MPI_Recv_init");
    }
    for (const PackedMessage& m : sends) {
      requests_.push_back(MPI_REQUEST_NULL);
      mpi_call(MPI_Send_init(m.data, m.count, MPI_DOUBLE, m.neighbour, m.tag, comm_, &requests_.back()),
               "MPI_Send_init");
    }
  }

  double* field_;
  MPI_Comm comm_;
  MessageBuffers buffers_;
  std::unique_ptr<ReverseBuffers> reverse_;  // --reverse only
  std::vector<MPI_Request> requests_;         // receives first, then sends (of the direction built)
};

}  // namespace

std::unique_ptr<Exchanger> make_mpi_persistent_exchanger(const ExchangerSetup& setup) {
  return std::make_unique<MpiPersistentExchanger>(setup);
}

}  // namespace gwbench::halo
