// SPDX-License-Identifier: BSD-3-Clause
// The copies gw-copy-bench times: one function per implementation, each copying `count` doubles of
// the global array from `first` (owned by `owner`) into `out`, complete on return.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "dash_source.hpp"
#include "ghostwire/dist.hpp"

namespace copybench {

namespace gw = ghostwire;

struct CopyCall {
  int owner;
  gw::Index first;
  std::size_t count;
  double* out;
};
using CopyFn = std::function<void(const CopyCall&)>;

// MPI_Get's source: a window of MPI_Win_allocate with the array's block size and values on every
// rank, under one passive-target lock_all (MPI_Get + MPI_Win_flush per copy, no synchronisation).
class GetWindow {
 public:
  GetWindow(MPI_Comm comm, gw::Index block);
  ~GetWindow();
  GetWindow(const GetWindow&) = delete;
  GetWindow& operator=(const GetWindow&) = delete;
  void get(const CopyCall& call, gw::Index block) const;

 private:
  MPI_Win window_ = MPI_WIN_NULL;
};

// Everything the copies read from: the array (BLOCKED, `block` doubles per rank, element i holds i)
// and the MPI window beside it. A block is the largest copy and a page of pad (block_pad), which
// the warm-up copy after each cache flush reads.
inline constexpr gw::Index block_pad = 4096 / sizeof(double);
struct CopySources {
  gw::Array<double>& array;
  gw::Index block;
  GetWindow& window;
};

// The named implementation over `sources`; dash-copy only when built with DASH.
CopyFn make_copy(const std::string& impl, CopySources& sources);

void set_dash_source(DashSource* source);  // what make_copy("dash-copy") uses

}  // namespace copybench
