// SPDX-License-Identifier: BSD-3-Clause
// Inter-node notified write over two-sided MPI. The sender copies the data into a staging buffer
// (so the caller's buffer is free at once and no receiver progress is needed to return) and sends a
// header; small payloads travel inside the header message, large ones follow as a second message
// received straight into the segment. The receiver applies writes when it polls (every wait does),
// in the order MPI's non-overtaking rule gives per sender. Invariant: a staging buffer stays with
// its send until MPI reports it complete. docs/runtime.md, "Notifications and notified writes".
#include <algorithm>
#include <cstring>
#include <string>

#include "ghostwire/error.hpp"
#include "mpi_check.hpp"
#include "segment_state.hpp"
#include "staging_pool.hpp"
#include "transport.hpp"
#include "wait.hpp"

namespace ghostwire::detail {
namespace {

constexpr int header_tag = 0x6757;  // "gW"
constexpr int data_tag = 0x6758;
// Payloads up to this size ride in the header message (one message instead of two).
constexpr std::size_t inline_limit = 16 * 1024;

struct Header {
  std::uint32_t segment;
  std::uint32_t id;
  std::uint32_t value;
  std::uint32_t inline_payload;  // 1: the data follows the header in the same message
  std::uint64_t offset;
  std::uint64_t bytes;
};

class P2pTransport final : public InterNodeTransport {
 public:
  explicit P2pTransport(WorldState& world) : w_(world), sent_to_(static_cast<std::size_t>(world.size), 0) {
    check_mpi(MPI_Comm_dup(world.comm, &comm_), "MPI_Comm_dup");
    check_mpi(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  }

  // Unchecked: a destructor must not throw (the World destroys the transport while MPI runs).
  ~P2pTransport() override {
    if (w_.broken) return;  // a send to a dead peer never completes (WorldState::broken)
    for (MPI_Request& request : requests_) {
      if (request != MPI_REQUEST_NULL) MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&comm_);
  }

  void write_notify(const void* source, int target, SegmentState& d, std::size_t offset, std::size_t bytes,
                    NotificationId id, NotificationValue value) override {
    bool inline_payload = bytes <= inline_limit;
    Header header{static_cast<std::uint32_t>(d.id), id, value, inline_payload ? 1u : 0u, offset, bytes};
    std::size_t message_bytes = sizeof header + (inline_payload ? bytes : 0);
    StagingPool::Buffer message = pool_.acquire(message_bytes);
    std::memcpy(message.bytes.get(), &header, sizeof header);
    if (inline_payload && bytes) std::memcpy(message.bytes.get() + sizeof header, source, bytes);
    start_send(std::move(message), message_bytes, target, header_tag);
    if (!inline_payload) {
      StagingPool::Buffer payload = pool_.acquire(bytes);
      std::memcpy(payload.bytes.get(), source, bytes);
      const std::byte* start = payload.bytes.get();
      for_each_mpi_chunk(bytes, [&](std::size_t done, int piece) {
        bool last = done + static_cast<std::size_t>(piece) >= bytes;
        // The pool buffer is handed over with the last piece, so it is released when all are sent.
        send_piece(start + done, piece, target, last ? std::move(payload) : StagingPool::Buffer{});
      });
    }
    ++sent_to_[static_cast<std::size_t>(target)];
    complete_sends();
  }

  void progress() override {
    complete_sends();
    for (;;) {
      int found = 0;
      MPI_Message message;
      MPI_Status status;
      check_mpi(MPI_Improbe(MPI_ANY_SOURCE, header_tag, comm_, &found, &message, &status), "MPI_Improbe");
      if (!found) return;
      int count = 0;
      check_mpi(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
      inbox_.resize(std::max<std::size_t>(static_cast<std::size_t>(count), sizeof(Header)));
      check_mpi(MPI_Mrecv(inbox_.data(), count, MPI_BYTE, &message, MPI_STATUS_IGNORE), "MPI_Mrecv");
      receive(status.MPI_SOURCE, static_cast<std::size_t>(count));
    }
  }

  bool needs_progress() const override { return true; }

  void quiesce() override {
    std::uint64_t expected = 0;
    check_mpi(MPI_Reduce_scatter_block(sent_to_.data(), &expected, 1, MPI_UINT64_T, MPI_SUM, comm_),
              "MPI_Reduce_scatter_block");
    wait_until(
        w_, [&] { return received_ >= expected; },
        [&] {
          return std::to_string(expected - received_) + " notified writes still in flight to this rank (" +
                 std::to_string(received_) + " of " + std::to_string(expected) + " arrived)";
        });
    wait_until(
        w_, [&] { complete_sends(); return live_sends_ == 0; },
        [&] { return std::to_string(live_sends_) + " of this rank's sends to complete"; });
  }

 private:
  void start_send(StagingPool::Buffer&& buffer, std::size_t bytes, int target, int tag) {
    MPI_Request request;
    check_mpi(MPI_Isend(buffer.bytes.get(), static_cast<int>(bytes), MPI_BYTE, target, tag, comm_, &request),
              "MPI_Isend");
    track(request, std::move(buffer));
  }

  void send_piece(const std::byte* start, int bytes, int target, StagingPool::Buffer&& owner) {
    MPI_Request request;
    check_mpi(MPI_Isend(start, bytes, MPI_BYTE, target, data_tag, comm_, &request), "MPI_Isend");
    track(request, std::move(owner));
  }

  void track(MPI_Request request, StagingPool::Buffer&& buffer) {
    requests_.push_back(request);
    buffers_.push_back(std::move(buffer));
    ++live_sends_;
  }

  // Releases the buffers of finished sends; compacts the lists when they are all done.
  void complete_sends() {
    if (live_sends_ == 0) return;
    int done_count = 0;
    done_.resize(requests_.size());
    check_mpi(MPI_Testsome(static_cast<int>(requests_.size()), requests_.data(), &done_count, done_.data(),
                           MPI_STATUSES_IGNORE),
              "MPI_Testsome");
    if (done_count == MPI_UNDEFINED) done_count = 0;
    for (int i = 0; i < done_count; ++i) pool_.release(std::move(buffers_[static_cast<std::size_t>(done_[i])]));
    live_sends_ -= static_cast<std::size_t>(done_count);
    if (live_sends_ == 0) {
      requests_.clear();
      buffers_.clear();
    } else if (requests_.size() > 64 + 2 * live_sends_) {
      std::size_t kept = 0;
      for (std::size_t i = 0; i < requests_.size(); ++i) {
        if (requests_[i] == MPI_REQUEST_NULL) continue;
        requests_[kept] = requests_[i];
        buffers_[kept] = std::move(buffers_[i]);
        ++kept;
      }
      requests_.resize(kept);
      buffers_.resize(kept);
    }
  }

  void receive(int source, std::size_t message_bytes) {
    Header header;
    if (message_bytes < sizeof header)
      raise(Errc::internal, "p2p transport: a " + std::to_string(message_bytes) + "-byte message from rank " +
                                std::to_string(source) + " is shorter than a header");
    std::memcpy(&header, inbox_.data(), sizeof header);
    SegmentState& d = w_.segment(static_cast<int>(header.segment), source);
    check_range(d, w_.rank, header.offset, header.bytes, "notified write from another node");
    if (header.id >= d.notification_count)
      raise(Errc::internal, "p2p transport: notification id " + std::to_string(header.id) + " from rank " +
                                std::to_string(source) + " is beyond segment " + std::to_string(d.id));
    std::byte* destination = d.data() + header.offset;
    if (header.inline_payload) {
      if (message_bytes != sizeof header + header.bytes)
        raise(Errc::internal, "p2p transport: message from rank " + std::to_string(source) + " has " +
                                  std::to_string(message_bytes) + " bytes, header says " +
                                  std::to_string(sizeof header + header.bytes));
      if (header.bytes) std::memcpy(destination, inbox_.data() + sizeof header, header.bytes);
    } else {
      // The data message was sent right after the header, so this receive completes.
      for_each_mpi_chunk(header.bytes, [&](std::size_t done, int piece) {
        check_mpi(MPI_Recv(destination + done, piece, MPI_BYTE, source, data_tag, comm_, MPI_STATUS_IGNORE),
                  "MPI_Recv");
      });
    }
    store_notification(d.notifications() + header.id, header.value);
    ++received_;
  }

  WorldState& w_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  StagingPool pool_;
  std::vector<MPI_Request> requests_;
  std::vector<StagingPool::Buffer> buffers_;
  std::vector<int> done_;
  std::size_t live_sends_ = 0;
  std::vector<std::byte> inbox_;
  std::vector<std::uint64_t> sent_to_;
  std::uint64_t received_ = 0;
};

}  // namespace

std::unique_ptr<InterNodeTransport> make_p2p_transport(WorldState& world) {
  return std::make_unique<P2pTransport>(world);
}

}  // namespace ghostwire::detail
