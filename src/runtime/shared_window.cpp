// SPDX-License-Identifier: BSD-3-Clause
// Node-shared windows (shared_window.hpp); docs/runtime.md, "Segments".
#include "shared_window.hpp"

#include <cstdint>

#include "mpi_check.hpp"

namespace ghostwire::detail {

NodeSharedWindow allocate_node_shared(MPI_Comm node_comm, std::size_t bytes, std::size_t alignment,
                                      bool noncontiguous) {
  MPI_Info info = MPI_INFO_NULL;
  if (noncontiguous) {
    check_mpi(MPI_Info_create(&info), "MPI_Info_create");
    check_mpi(MPI_Info_set(info, "alloc_shared_noncontig", "true"), "MPI_Info_set");
  }
  NodeSharedWindow shared;
  void* base = nullptr;
  int allocated = MPI_Win_allocate_shared(static_cast<MPI_Aint>(bytes + alignment), 1, info, node_comm, &base,
                                          &shared.window);
  // The info goes whatever the allocation did; the allocation's error is the one to report.
  int freed = info != MPI_INFO_NULL ? MPI_Info_free(&info) : MPI_SUCCESS;
  check_mpi(allocated, "MPI_Win_allocate_shared");
  check_mpi(freed, "MPI_Info_free");
  int members = 0;
  check_mpi(MPI_Comm_size(node_comm, &members), "MPI_Comm_size");
  shared.parts.resize(static_cast<std::size_t>(members));
  for (int r = 0; r < members; ++r) {
    MPI_Aint size = 0;
    int unit = 0;
    void* peer = nullptr;
    check_mpi(MPI_Win_shared_query(shared.window, r, &size, &unit, &peer), "MPI_Win_shared_query");
    auto address = reinterpret_cast<std::uintptr_t>(peer);
    shared.parts[static_cast<std::size_t>(r)] =
        static_cast<std::byte*>(peer) + ((address + alignment - 1) / alignment * alignment - address);
  }
  return shared;
}

}  // namespace ghostwire::detail
