// SPDX-License-Identifier: BSD-3-Clause
// mpi-put: MPI-3 one-sided with active-target synchronisation. Every rank's receive buffers (one
// after another) form a window made once with MPI_Win_allocate; each sender learns once where its
// messages land. Per exchange: pack, MPI_Win_fence, MPI_Put of every message into the neighbour's
// receive buffer, MPI_Win_fence, unpack. The fences carry the assertions that hold (no RMA before
// the opening fence, none after the closing one, no local stores into the window), so MPI may
// skip work it does not need.
#include <mpi.h>

#include <algorithm>
#include <memory>

#include "../mpi_call.hpp"
#include "exchanger.hpp"
#include "message_buffers.hpp"

namespace gwbench::halo {
namespace {

class MpiPutExchanger final : public Exchanger {
 public:
  explicit MpiPutExchanger(const ExchangerSetup& setup)
      : field_(reinterpret_cast<double*>(setup.shared_field.data())), comm_(duplicate_world()) {
    const HaloCase& c = setup.halo_case;
    double* area = nullptr;
    // Whole pages: with MPICH 4.0.2 on one host, a put into a rank whose predecessors' parts of an
    // MPI_Win_allocate window are not suitably aligned sizes lands early (after a 616-byte part of
    // rank 0, a put to rank 1 landed 24 bytes before its window; 640 would be 64-byte aligned).
    constexpr std::size_t page = 4096;
    std::size_t wanted = std::max<std::size_t>(1, c.receive_elements()) * sizeof(double);
    auto bytes = static_cast<MPI_Aint>((wanted + page - 1) / page * page);
    mpi_call(MPI_Win_allocate(bytes, sizeof(double), MPI_INFO_NULL, comm_, &area, &window_), "MPI_Win_allocate");
    MPI_Win_set_errhandler(window_, MPI_ERRORS_RETURN);
    buffers_ = std::make_unique<MessageBuffers>(c, field_, area);

    // Where each of my messages lands at its receiver, in doubles from the start of its window.
    std::vector<MPI_Aint> offsets;
    for (const PackedMessage& m : buffers_->receives) offsets.push_back(m.data - area);
    target_offsets_.assign(buffers_->sends.size(), 0);
    std::vector<MPI_Request> requests;
    for (std::size_t i = 0; i < buffers_->sends.size(); ++i) {
      requests.push_back(MPI_REQUEST_NULL);
      const PackedMessage& m = buffers_->sends[i];
      mpi_call(MPI_Irecv(&target_offsets_[i], 1, MPI_AINT, m.neighbour, m.tag, comm_, &requests.back()), "MPI_Irecv");
    }
    for (std::size_t i = 0; i < buffers_->receives.size(); ++i) {
      requests.push_back(MPI_REQUEST_NULL);
      const PackedMessage& m = buffers_->receives[i];
      mpi_call(MPI_Isend(&offsets[i], 1, MPI_AINT, m.neighbour, m.tag, comm_, &requests.back()), "MPI_Isend");
    }
    mpi_call(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
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

 private:
  double* field_;
  MPI_Comm comm_;
  MPI_Win window_ = MPI_WIN_NULL;
  std::unique_ptr<MessageBuffers> buffers_;
  std::vector<MPI_Aint> target_offsets_;
};

}  // namespace

std::unique_ptr<Exchanger> make_mpi_put_exchanger(const ExchangerSetup& setup) {
  return std::make_unique<MpiPutExchanger>(setup);
}

}  // namespace gwbench::halo
