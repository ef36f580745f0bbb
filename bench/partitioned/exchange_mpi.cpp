// SPDX-License-Identifier: BSD-3-Clause
// The MPI implementations of gw-partitioned-bench. mpi-partitioned: MPI-4's persistent partitioned
// requests, started and completed by one thread per iteration (MPI requires both before the
// partitions can be marked ready again), partitions marked ready and tested by their threads.
// mpi-isend: one MPI_Isend and MPI_Irecv per partition and thread, no thread waits for another.
#include <mpi.h>
#include <omp.h>

#include <vector>

#include "partitioned_exchange.hpp"

namespace gwpart {
namespace {

void complete(MPI_Request& request) {
  int done = 0;
  Backoff backoff;
  for (MPI_Test(&request, &done, MPI_STATUS_IGNORE); !done; MPI_Test(&request, &done, MPI_STATUS_IGNORE))
    backoff.pause();
}

#ifdef GWPART_HAVE_MPI_PARTITIONED
class MpiPartitioned final : public PartitionedExchange {
 public:
  MpiPartitioned(const Setup& setup, std::size_t bytes, std::size_t partitions)
      : PartitionedExchange(setup, bytes, partitions), send_(bytes / sizeof(double)), receive_(bytes / sizeof(double)) {
    const int parts = static_cast<int>(partitions);
    const auto count = static_cast<MPI_Count>(elements_);
    MPI_Psend_init(send_.data(), parts, count, MPI_DOUBLE, setup.peer, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &send_request_);
    MPI_Precv_init(receive_.data(), parts, count, MPI_DOUBLE, setup.peer, 7, MPI_COMM_WORLD, MPI_INFO_NULL,
                   &receive_request_);
  }
  ~MpiPartitioned() override {
    MPI_Request_free(&send_request_);
    MPI_Request_free(&receive_request_);
  }

 private:
  void loop(int thread, int threads, long first, long count) override {
    for (long it = first; it < first + count; ++it) {
      // Every thread is done with the last iteration's partitions before the requests restart.
#pragma omp barrier
#pragma omp single
      {
        if (it > first) finish();
        MPI_Start(&send_request_);
        MPI_Start(&receive_request_);
      }  // the single's barrier: the requests are started before any partition is marked ready
      for (std::size_t k = static_cast<std::size_t>(thread); k < partitions_; k += static_cast<std::size_t>(threads)) {
        fill(send_.data(), k, it);
        MPI_Pready(static_cast<int>(k), send_request_);
      }
      for (std::size_t k = static_cast<std::size_t>(thread); k < partitions_; k += static_cast<std::size_t>(threads)) {
        int arrived = 0;
        Backoff backoff;
        for (MPI_Parrived(receive_request_, static_cast<int>(k), &arrived); !arrived;
             MPI_Parrived(receive_request_, static_cast<int>(k), &arrived))
          backoff.pause();
        check(receive_.data(), k, it);
      }
    }
#pragma omp barrier
#pragma omp single
    finish();
  }
  void finish() {
    complete(send_request_);
    complete(receive_request_);
  }

  std::vector<double> send_, receive_;
  MPI_Request send_request_ = MPI_REQUEST_NULL, receive_request_ = MPI_REQUEST_NULL;
};
#endif

class MpiIsend final : public PartitionedExchange {
 public:
  MpiIsend(const Setup& setup, std::size_t bytes, std::size_t partitions)
      : PartitionedExchange(setup, bytes, partitions), send_(bytes / sizeof(double)), receive_(bytes / sizeof(double)) {}

 private:
  void loop(int thread, int threads, long first, long count) override {
    const int n = static_cast<int>(elements_);
    std::vector<MPI_Request> sends, receives;
    for (long it = first; it < first + count; ++it) {
      sends.clear();
      receives.clear();
      for (std::size_t k = static_cast<std::size_t>(thread); k < partitions_; k += static_cast<std::size_t>(threads)) {
        receives.emplace_back();
        MPI_Irecv(partition_of(receive_.data(), k), n, MPI_DOUBLE, setup_.peer, static_cast<int>(k), MPI_COMM_WORLD,
                  &receives.back());
      }
      for (std::size_t k = static_cast<std::size_t>(thread); k < partitions_; k += static_cast<std::size_t>(threads)) {
        fill(send_.data(), k, it);
        sends.emplace_back();
        MPI_Isend(partition_of(send_.data(), k), n, MPI_DOUBLE, setup_.peer, static_cast<int>(k), MPI_COMM_WORLD,
                  &sends.back());
      }
      std::size_t i = 0;
      for (std::size_t k = static_cast<std::size_t>(thread); k < partitions_; k += static_cast<std::size_t>(threads)) {
        complete(receives[i++]);
        check(receive_.data(), k, it);
      }
      for (MPI_Request& request : sends) complete(request);
    }
  }

  std::vector<double> send_, receive_;
};

}  // namespace

std::unique_ptr<PartitionedExchange> make_gw_exchange(const std::string& mode, const Setup& setup, std::size_t bytes,
                                                      std::size_t partitions);

std::unique_ptr<PartitionedExchange> make_exchange(const std::string& name, const Setup& setup, std::size_t bytes,
                                                   std::size_t partitions) {
  if (name.rfind("gw", 0) == 0) return make_gw_exchange(name, setup, bytes, partitions);
#ifdef GWPART_HAVE_MPI_PARTITIONED
  if (name == "mpi-partitioned") return std::make_unique<MpiPartitioned>(setup, bytes, partitions);
#endif
  return std::make_unique<MpiIsend>(setup, bytes, partitions);
}

}  // namespace gwpart
