// SPDX-License-Identifier: BSD-3-Clause
// The Jacobi variants: examples/heat_jacobi.cpp's program written on ghostwire Grids and with plain
// MPI, same kernel arithmetic, same initial state (a hot square in a cold periodic plate).
#include <cmath>
#include <utility>
#include <vector>

#include "variants.hpp"

namespace distbench {
namespace {

namespace gw = ghostwire;
using Grid = gw::Grid<double, 2>;
constexpr double dt = 0.2;

double initial(Index n, Index i, Index j) { return i >= n / 4 && i < n / 2 && j >= n / 4 && j < n / 2 ? 1.0 : 0.0; }

// Cells [j0, j1) of a row from the rows above and below it: the example's kernel, word for word,
// shared by both programs.
void update_row(const double* above, const double* row, const double* below, double* out, Index j0, Index j1) {
  for (Index j = j0; j < j1; ++j) out[j] = row[j] + dt * (above[j] + below[j] + row[j - 1] + row[j + 1] - 4 * row[j]);
}

// The example's sweep over a box, word for word.
void step(const Grid& u, Grid& v, const gw::Box<2>& box) {
  for (Index i = box.low[0]; i < box.high()[0]; ++i)
    update_row(&u(i - 1, 0), &u(i, 0), &u(i + 1, 0), &v(i, 0), box.low[1], box.high()[1]);
}

class JacobiGw final : public Variant {
 public:
  JacobiGw(gw::World& world, Index n, bool overlap)
      : n_(n), overlap_(overlap), u_(world, {n, n}, halo()), v_(world, {n, n}, halo()) {
    gw::for_each_local(u_, [&](const gw::Point<2>& g, double& x) { x = initial(n, g[0], g[1]); });
  }
  void run(int count) override {
    const gw::Box<2> owned = u_.local_box();
    for (int s = 0; s < count; ++s) {
      if (overlap_) {
        gw::HaloHandle update = u_.update_halo_async();
        step(u_, v_, owned.shrink(1));
        update.wait();
        for (const gw::Box<2>& rim : owned.rim(1)) step(u_, v_, rim);
      } else {
        u_.update_halo();
        step(u_, v_, owned);
      }
      std::swap(u_, v_);
    }
  }
  bool verify() override { return std::isfinite(checksum()); }
  double checksum() override {
    double local = 0;
    gw::for_each_local(u_, [&](double& x) { local += x * x; });
    double total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return total;
  }

 private:
  static gw::Halo<2> halo() { return gw::Halo<2>(1, gw::Stencil::faces, gw::Boundary::periodic); }
  Index n_;
  bool overlap_;
  Grid u_, v_;
};

// Plain MPI: the same decomposition, padded arrays, nonblocking face exchange overlapped with the
// inner cells, the rim after MPI_Waitall. With `shared_memory` the two arrays live in shared memory
// (ghostwire Segments, an MPI shared-memory window, like a Grid's storage) instead of the heap: the
// same program, so the two variants show what the kind of memory costs a memory-bound sweep.
class JacobiMpi final : public Variant {
 public:
  JacobiMpi(gw::World& world, Index n, bool shared_memory) : faces_(MPI_COMM_WORLD, gw::make_pattern<2>({n, n}, world.size())) {
    e0_ = faces_.extent[0];
    e1_ = faces_.extent[1];
    s_ = faces_.padded_columns;
    std::size_t cells = static_cast<std::size_t>((e0_ + 2) * s_);
    if (shared_memory) {
      shared_u_ = std::make_unique<gw::Segment>(world, cells * sizeof(double));
      shared_v_ = std::make_unique<gw::Segment>(world, cells * sizeof(double));
      u_ = reinterpret_cast<double*>(shared_u_->data());  // zeroed by the Segment
      v_ = reinterpret_cast<double*>(shared_v_->data());
    } else {
      heap_u_.assign(cells, 0.0);
      heap_v_.assign(cells, 0.0);
      u_ = heap_u_.data();
      v_ = heap_v_.data();
    }
    int rank = 0;
    MPI_Comm_rank(faces_.cart, &rank);
    int coords[2];
    MPI_Cart_coords(faces_.cart, rank, 2, coords);
    // BLOCKED, as the Grid: blocks of ceil(n / p).
    int dims[2], periods[2];
    MPI_Cart_get(faces_.cart, 2, dims, periods, coords);
    Index b0 = (n + dims[0] - 1) / dims[0], b1 = (n + dims[1] - 1) / dims[1];
    for (Index i = 0; i < e0_; ++i)
      for (Index j = 0; j < e1_; ++j) u_[static_cast<std::size_t>((i + 1) * s_ + j + 1)] = initial(n, coords[0] * b0 + i, coords[1] * b1 + j);
  }
  void run(int count) override {
    for (int s = 0; s < count; ++s) {
      double* u = u_;
      faces_.start(u, requests_);
      sweep(u, v_, 2, e0_ - 1, 2, e1_ - 1);  // inner cells (padded coordinates)
      MPI_Waitall(8, requests_, MPI_STATUSES_IGNORE);
      sweep(u, v_, 1, 1, 1, e1_);            // first row
      if (e0_ > 1) sweep(u, v_, e0_, e0_, 1, e1_);  // last row
      sweep(u, v_, 2, e0_ - 1, 1, 1);        // first column
      if (e1_ > 1) sweep(u, v_, 2, e0_ - 1, e1_, e1_);  // last column
      std::swap(u_, v_);
    }
  }
  bool verify() override { return std::isfinite(checksum()); }
  double checksum() override {
    double local = 0;
    for (Index i = 1; i <= e0_; ++i)
      for (Index j = 1; j <= e1_; ++j) {
        double x = u_[static_cast<std::size_t>(i * s_ + j)];
        local += x * x;
      }
    double total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return total;
  }

 private:
  // Rows [i0, i1] and columns [j0, j1], inclusive, padded coordinates.
  void sweep(const double* u, double* v, Index i0, Index i1, Index j0, Index j1) const {
    for (Index i = i0; i <= i1; ++i) {
      const double* c = u + i * s_;
      update_row(c - s_, c, c + s_, v + i * s_, j0, j1 + 1);
    }
  }
  MpiFaces faces_;
  Index e0_ = 0, e1_ = 0, s_ = 0;
  std::vector<double> heap_u_, heap_v_;
  std::unique_ptr<gw::Segment> shared_u_, shared_v_;
  double *u_ = nullptr, *v_ = nullptr;
  MPI_Request requests_[8];
};

std::unique_ptr<Variant> make_gw(gw::World& world, Index n, SharedState&) {
  return std::make_unique<JacobiGw>(world, n, true);
}
std::unique_ptr<Variant> make_gw_sync(gw::World& world, Index n, SharedState&) {
  return std::make_unique<JacobiGw>(world, n, false);
}
std::unique_ptr<Variant> make_mpi(gw::World& world, Index n, SharedState&) {
  return std::make_unique<JacobiMpi>(world, n, false);
}
std::unique_ptr<Variant> make_mpi_shared_memory(gw::World& world, Index n, SharedState&) {
  return std::make_unique<JacobiMpi>(world, n, true);
}

}  // namespace

std::vector<VariantInfo> jacobi_variants() {
  return {{"jacobi-gw", "jacobi", "examples/heat_jacobi: Grid, update_halo_async, inner, wait, rim, swap", make_gw},
          {"jacobi-gw-sync", "jacobi", "Grid, update_halo(), all cells, swap", make_gw_sync},
          {"jacobi-mpi", "jacobi", "plain MPI: Irecv/Isend of the faces, inner, Waitall, rim, swap", make_mpi},
          {"jacobi-mpi-shm", "jacobi", "the plain MPI program with its arrays in shared memory (as a Grid's)",
           make_mpi_shared_memory}};
}

}  // namespace distbench
