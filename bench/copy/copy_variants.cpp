// SPDX-License-Identifier: BSD-3-Clause
#include "copy_variants.hpp"

#include <cstring>
#include <stdexcept>

namespace copybench {
namespace {

#if GW_COPY_HAVE_DASH
DashSource* dash_source = nullptr;
#endif

void check(int code, const char* call) {
  if (code != MPI_SUCCESS) throw std::runtime_error(std::string("gw-copy-bench: ") + call + " failed");
}

}  // namespace

GetWindow::GetWindow(MPI_Comm comm, gw::Index block) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  double* base = nullptr;
  check(MPI_Win_allocate(static_cast<MPI_Aint>(block * sizeof(double)), sizeof(double), MPI_INFO_NULL, comm, &base,
                         &window_),
        "MPI_Win_allocate");
  for (gw::Index i = 0; i < block; ++i) base[i] = static_cast<double>(rank * block + i);
  MPI_Barrier(comm);
  check(MPI_Win_lock_all(MPI_MODE_NOCHECK, window_), "MPI_Win_lock_all");
}

GetWindow::~GetWindow() {
  MPI_Win_unlock_all(window_);
  MPI_Win_free(&window_);
}

void GetWindow::get(const CopyCall& call, gw::Index block) const {
  const MPI_Aint displacement = call.first - static_cast<gw::Index>(call.owner) * block;
  const int count = static_cast<int>(call.count);
  check(MPI_Get(call.out, count, MPI_DOUBLE, call.owner, displacement, count, MPI_DOUBLE, window_), "MPI_Get");
  check(MPI_Win_flush(call.owner, window_), "MPI_Win_flush");
}

void set_dash_source([[maybe_unused]] DashSource* source) {
#if GW_COPY_HAVE_DASH
  dash_source = source;
#endif
}

CopyFn make_copy(const std::string& impl, CopySources& s) {
  if (impl == "memcpy")
    // The ceiling: the same bytes from this rank's own block, a plain memcpy.
    return [&s](const CopyCall& c) {
      const gw::Index offset = c.first - static_cast<gw::Index>(c.owner) * s.block;
      std::memcpy(c.out, s.array.lbegin() + offset, c.count * sizeof(double));
    };
  if (impl == "gw-copy")
    return [&s](const CopyCall& c) {
      gw::copy(s.array, c.first, c.first + static_cast<gw::Index>(c.count), c.out);
    };
  if (impl == "gw-copy-async")
    return [&s](const CopyCall& c) {
      auto future = gw::copy_async(s.array, c.first, c.first + static_cast<gw::Index>(c.count), c.out);
      future.wait();
    };
  if (impl == "mpi-get") return [&s](const CopyCall& c) { s.window.get(c, s.block); };
#if GW_COPY_HAVE_DASH
  if (impl == "dash-copy" && dash_source) return [](const CopyCall& c) { dash_source->copy(c.first, c.count, c.out); };
#endif
  throw std::runtime_error("gw-copy-bench: implementation '" + impl + "' is not built in");
}

}  // namespace copybench
