// SPDX-License-Identifier: BSD-3-Clause
// mpi-sendrecv: what a plain MPI code does. Ping-pong with blocking MPI_Send/MPI_Recv; a streaming
// window as osu_bw does it, MPI_Isend/MPI_Irecv of every message and one MPI_Waitall.
#include <cstdlib>
#include <cstring>
#include <memory>

#include "messenger.hpp"
#include "mpi_call.hpp"
#include "run_context.hpp"

namespace gwbench {
namespace {

constexpr int data_tag = 1, ack_tag = 2;

struct FreeDeleter {
  void operator()(std::byte* p) const noexcept { std::free(p); }
};

class MpiSendRecvMessenger final : public Messenger {
 public:
  MpiSendRecvMessenger(int peer, bool in_pair, const SlotLayout& layout, Verify verify)
      : Messenger("mpi-sendrecv", "", layout, verify), comm_(duplicate_world()), peer_(peer) {
    if (!in_pair) return;
    std::size_t bytes = (layout.buffer_bytes() + 4095) / 4096 * 4096;
    buffer_.reset(static_cast<std::byte*>(std::aligned_alloc(4096, bytes)));
    if (!buffer_) throw std::runtime_error("mpi-sendrecv: cannot allocate " + std::to_string(bytes) + " bytes");
    std::memset(buffer_.get(), 0, bytes);  // touch the pages now, not inside a measurement
    requests_.resize(static_cast<std::size_t>(layout.window));
  }
  ~MpiSendRecvMessenger() override { MPI_Comm_free(&comm_); }

  void send(std::size_t bytes, Stamp stamp) override {
    stamp_message(source(), bytes, stamp, verify_);
    mpi_call(MPI_Send(source(), count(bytes), MPI_BYTE, peer_, data_tag, comm_), "MPI_Send");
  }

  void receive(std::size_t bytes, Stamp stamp) override {
    mpi_call(MPI_Recv(buffer_.get(), count(bytes), MPI_BYTE, peer_, data_tag, comm_, MPI_STATUS_IGNORE), "MPI_Recv");
    check_message(buffer_.get(), bytes, stamp, verify_, name_);
  }

  // All messages of a window go out of the same source (reading a buffer that pending sends also
  // read is allowed since MPI-3).
  void send_window(std::size_t bytes, int count_of_messages, Stamp stamp) override {
    stamp_message(source(), bytes, stamp, verify_);
    for (int j = 0; j < count_of_messages; ++j)
      mpi_call(MPI_Isend(source(), count(bytes), MPI_BYTE, peer_, data_tag, comm_, &requests_[static_cast<std::size_t>(j)]),
               "MPI_Isend");
    mpi_call(MPI_Waitall(count_of_messages, requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  }

  // When the window has more messages than the receive area has slots, receives share slots (as
  // osu_bw's share one buffer); every message of a window carries the same bytes.
  void receive_window(std::size_t bytes, int count_of_messages, Stamp stamp) override {
    for (int j = 0; j < count_of_messages; ++j)
      mpi_call(MPI_Irecv(buffer_.get() + layout_.offset(bytes, j), count(bytes), MPI_BYTE, peer_, data_tag, comm_,
                         &requests_[static_cast<std::size_t>(j)]),
               "MPI_Irecv");
    mpi_call(MPI_Waitall(count_of_messages, requests_.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    check_window(buffer_.get(), bytes, count_of_messages, stamp);
  }

  void send_ack(Stamp stamp) override {
    mpi_call(MPI_Send(&stamp, 1, MPI_UINT32_T, peer_, ack_tag, comm_), "MPI_Send");
  }
  void wait_ack(Stamp stamp) override {
    Stamp found = 0;
    mpi_call(MPI_Recv(&found, 1, MPI_UINT32_T, peer_, ack_tag, comm_, MPI_STATUS_IGNORE), "MPI_Recv");
    check_stamp(found, stamp, name_, "the acknowledgement");
  }

 private:
  static int count(std::size_t bytes) { return static_cast<int>(bytes); }  // sizes are capped at 1 GiB
  std::byte* source() { return buffer_.get() + layout_.source_offset(); }

  MPI_Comm comm_;
  int peer_;
  std::unique_ptr<std::byte, FreeDeleter> buffer_;
  std::vector<MPI_Request> requests_;
};

}  // namespace

std::unique_ptr<Messenger> make_mpi_sendrecv_messenger(RunContext& context, const SlotLayout& layout, Verify verify) {
  return std::make_unique<MpiSendRecvMessenger>(context.peer(), context.in_pair(), layout, verify);
}

}  // namespace gwbench
