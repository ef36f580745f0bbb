// SPDX-License-Identifier: BSD-3-Clause
// mpi-put: MPI-3 one-sided with active-target synchronisation. Every rank's receive buffers (one
// after another) form a window made once with MPI_Win_allocate; each sender learns once where its
// messages land. Per exchange: pack, MPI_Win_fence, MPI_Put of every message into the neighbour's
// receive buffer, MPI_Win_fence, unpack. The fences carry the assertions that hold (no RMA before
// the opening fence, none after the closing one, no local stores into the window), so MPI may
// skip work it does not need.
//
// Reverse (--reverse): the window holds the returning messages instead (each rank's forward sends,
// reverse_buffers.hpp), the owner tells each neighbour once where they land, the ghost regions are
// put there between the same fences, and the owner adds them in (neighbour, tag) order.
#include <mpi.h>

#include <algorithm>
#include <memory>

#include "../mpi_call.hpp"
#include "exchanger.hpp"
#include "message_buffers.hpp"
#include "reverse_buffers.hpp"

namespace gwbench::halo {
namespace {

class MpiPutExchanger final : public Exchanger {
 public:
  explicit MpiPutExchanger(const ExchangerSetup& setup)
      : field_(reinterpret_cast<double*>(setup.shared_field.data())), comm_(duplicate_world()) {
    const HaloCase& c = setup.halo_case;
    const bool reverse = setup.direction == Direction::reverse;
    double* area = nullptr;
    // Whole pages: with MPICH 4.0.2 on one host, a put into a rank whose predecessors' parts of an
    // MPI_Win_allocate window are not suitably aligned sizes lands early (after a 616-byte part of
    // rank 0, a put to rank 1 landed 24 bytes before its window; 640 would be 64-byte aligned).
    constexpr std::size_t page = 4096;
    std::size_t landing = reverse ? returning_elements(c) : c.receive_elements();
    std::size_t wanted = std::max<std::size_t>(1, landing) * sizeof(double);
    auto bytes = static_cast<MPI_Aint>((wanted + page - 1) / page * page);
    mpi_call(MPI_Win_allocate(bytes, sizeof(double), MPI_INFO_NULL, comm_, &area, &window_), "MPI_Win_allocate");
    MPI_Win_set_errhandler(window_, MPI_ERRORS_RETURN);
    if (reverse) {
      reverse_ = std::make_unique<ReverseBuffers>(c, field_, area);
      learn_targets(reverse_->sends(), reverse_->receives(), area);
    } else {
      buffers_ = std::make_unique<MessageBuffers>(c, field_, area);
      learn_targets(buffers_->sends, buffers_->receives, area);
    }
  }
  ~MpiPutExchanger() override {
    MPI_Win_free(&window_);
    MPI_Comm_free(&comm_);
  }

  double* field() override { return field_; }

  void exchange() override {
    buffers_->pack();
    mpi_call(MPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOSTORE, window_), "MPI_Win_fence");
    for (std::size_t i = 0; i < buffers_->sends.size(); ++i) {
      const PackedMessage& m = buffers_->sends[i];
      mpi_call(MPI_Put(m.data, m.count, MPI_DOUBLE, m.neighbour, target_offsets_[i], m.count, MPI_DOUBLE, window_),
               "MPI_Put");
    }
    mpi_call(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOSUCCEED, window_), "MPI_Win_fence");
    buffers_->unpack();
  }

  void reverse_sum() override {
    reverse_->pack();
    mpi_call(MPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOSTORE, window_), "MPI_Win_fence");
    for (std::size_t i = 0; i < reverse_->sends().size(); ++i) {
      const PackedMessage& m = reverse_->sends()[i];
      mpi_call(MPI_Put(m.data, m.count, MPI_DOUBLE, m.neighbour, target_offsets_[i], m.count, MPI_DOUBLE, window_),
               "MPI_Put");
    }
    mpi_call(MPI_Win_fence(MPI_MODE_NOSTORE | MPI_MODE_NOSUCCEED, window_), "MPI_Win_fence");
    reverse_->add();
  }

 private:
  // Where each message I put lands at its target, in doubles from the start of its window: every
  // rank tells the senders of what lands in its window, once.
  void learn_targets(const std::vector<PackedMessage>& puts, const std::vector<PackedMessage>& landings,
                     const double* area) {
    std::vector<MPI_Aint> offsets;
    for (const PackedMessage& m : landings) offsets.push_back(m.data - area);
    target_offsets_.assign(puts.size(), 0);
    std::vector<MPI_Request> requests;
    for (std::size_t i = 0; i < puts.size(); ++i) {
      requests.push_back(MPI_REQUEST_NULL);
      const PackedMessage& m = puts[i];
      mpi_call(MPI_Irecv(&target_offsets_[i], 1, MPI_AINT, m.neighbour, m.tag, comm_, &requests.back()), "MPI_Irecv");
    }
    for (std::size_t i = 0; i < landings.size(); ++i) {
      requests.push_back(MPI_REQUEST_NULL);
      const PackedMessage& m = landings[i];
      mpi_call(MPI_Isend(&offsets[i], 1, MPI_AINT, m.neighbour, m.tag, comm_, &requests.back()), "MPI_Isend");
    }
    mpi_call(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

  double* field_;
  MPI_Comm comm_;
  MPI_Win window_ = MPI_WIN_NULL;
  std::unique_ptr<MessageBuffers> buffers_;   // forward only
  std::unique_ptr<ReverseBuffers> reverse_;   // --reverse only
  std::vector<MPI_Aint> target_offsets_;
};

}  // namespace

std::unique_ptr<Exchanger> make_mpi_put_exchanger(const ExchangerSetup& setup) {
  return std::make_unique<MpiPutExchanger>(setup);
}

}  // namespace gwbench::halo
