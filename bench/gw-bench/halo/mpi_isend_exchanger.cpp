// SPDX-License-Identifier: BSD-3-Clause
// mpi-isend: the textbook MPI halo exchange. Post every receive (MPI_Irecv), pack each message and
// send it (MPI_Isend), wait for all (MPI_Waitall), unpack. Messages that are one contiguous run of
// the array go without packing. Reverse (--reverse): the same with the ghost regions sent back and
// the owner adding what arrives, after the Waitall, in (neighbour, tag) order (reverse_buffers.hpp).
#include <mpi.h>

#include <memory>

#include "../mpi_call.hpp"
#include "exchanger.hpp"
#include "message_buffers.hpp"
#include "reverse_buffers.hpp"

namespace gwbench::halo {
namespace {

class MpiIsendExchanger final : public Exchanger {
 public:
  explicit MpiIsendExchanger(const ExchangerSetup& setup)
      : field_(reinterpret_cast<double*>(setup.shared_field.data())),
        comm_(duplicate_world()),
        buffers_(setup.halo_case, field_),
        requests_(buffers_.sends.size() + buffers_.receives.size(), MPI_REQUEST_NULL) {
    if (setup.direction == Direction::reverse) reverse_ = std::make_unique<ReverseBuffers>(setup.halo_case, field_);
  }
  ~MpiIsendExchanger() override { MPI_Comm_free(&comm_); }

  double* field() override { return field_; }

  void exchange() override {
    MPI_Request* request = requests_.data();
    for (const PackedMessage& m : buffers_.receives)
      mpi_call(MPI_Irecv(m.data, m.count, MPI_DOUBLE, m.neighbour, m.tag, comm_, request++), "MPI_Irecv");
    for (const PackedMessage& m : buffers_.sends) {
      buffers_.pack(m);
      mpi_call(MPI_Isend(m.data, m.count, MPI_DOUBLE, m.neighbour, m.tag, comm_, request++), "MPI_Isend");
    }
    mpi_call(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    buffers_.unpack();
  }

  // The requests_ serve both directions: a reverse message mirrors a forward one.
  void reverse_sum() override {
    MPI_Request* request = requests_.data();
    for (const PackedMessage& m : reverse_->receives())
      mpi_call(MPI_Irecv(m.data, m.count, MPI_DOUBLE, m.neighbour, m.tag, comm_, request++), "MPI_Irecv");
    for (const PackedMessage& m : reverse_->sends()) {
      reverse_->pack(m);
      mpi_call(MPI_Isend(m.data, m.count, MPI_DOUBLE, m.neighbour, m.tag, comm_, request++), "MPI_Isend");
    }
    mpi_call(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    reverse_->add();
  }

 private:
  double* field_;
  MPI_Comm comm_;
  MessageBuffers buffers_;
  std::vector<MPI_Request> requests_;
  std::unique_ptr<ReverseBuffers> reverse_;  // --reverse only
};

}  // namespace

std::unique_ptr<Exchanger> make_mpi_isend_exchanger(const ExchangerSetup& setup) {
  return std::make_unique<MpiIsendExchanger>(setup);
}

}  // namespace gwbench::halo
