// SPDX-License-Identifier: BSD-3-Clause
// docs/dist.md's examples as one program: patterns and teams, several grids in one update, reverse
// updates, staggered fields with partial depths, arrays and copies. Each part checks what it
// computes cell by cell (every ghost cell against the value it must hold) and adds a value that
// does not depend on the decomposition to the checksum; the checksum is printed only when every
// check passed, and it is the same on any number of ranks.
//
//   scripts/launch -n 2 -- build/examples/dist_tour
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

#include "ghostwire/dist.hpp"

namespace gw = ghostwire;

namespace {

int failures = 0;  // this rank's failed checks

void expect(bool ok, const char* what, double got, double want) {
  if (ok) return;
  if (++failures <= 5) std::printf("dist_tour: %s: got %.17g, expected %.17g\n", what, got, want);
}

double global_sum(gw::World& world, double local) {
  gw::allreduce(world, std::span(&local, 1), gw::ReduceOp::sum);
  return local;
}

// The value a field holds at global cell g before any exchange.
double value(int field, const gw::Point<2>& g) { return field * 100000.0 + g[0] * 1000.0 + g[1] + 1; }

// Whether local index i of a dimension with n owned cells lies in the layers [-low, n + high).
bool within(gw::Index i, gw::Index n, gw::Index low, gw::Index high) { return i >= -low && i < n + high; }

// Every ghost cell of `grid` (halo width `width`) against what an update of layers low/high (per
// dimension, full stencil) leaves there: the owner's value where the layers reach a cell of the
// grid (wrapped around when periodic), the marker -1 everywhere else.
void check_ghosts(const gw::Grid<double, 2>& grid, int field, gw::Point<2> width, gw::Point<2> low, gw::Point<2> high,
                  const char* what) {
  const gw::Point<2> n = grid.local_extents();
  for (gw::Index i = -width[0]; i < n[0] + width[0]; ++i)
    for (gw::Index j = -width[1]; j < n[1] + width[1]; ++j) {
      if (i >= 0 && i < n[0] && j >= 0 && j < n[1]) continue;  // owned
      gw::Point<2> g = grid.to_global({i, j});
      bool filled = within(i, n[0], low[0], high[0]) && within(j, n[1], low[1], high[1]);
      for (int d = 0; d < 2; ++d) {
        if (grid.halo().periodic[d]) g[d] = (g[d] + grid.extent(d)) % grid.extent(d);
        filled = filled && g[d] >= 0 && g[d] < grid.extent(d);
      }
      const double want = filled ? value(field, g) : -1.0;
      expect(grid(i, j) == want, what, grid(i, j), want);
    }
}

// Owned cells hold value(field, g), ghost cells the marker -1.
void fill(gw::Grid<double, 2>& grid, int field, gw::Point<2> width) {
  for (gw::Index i = -width[0]; i < grid.local_extent(0) + width[0]; ++i)
    for (gw::Index j = -width[1]; j < grid.local_extent(1) + width[1]; ++j) grid(i, j) = -1;
  gw::for_each_local(grid, [&](const gw::Point<2>& g, double& x) { x = value(field, g); });
}

// "Patterns and teams": pure arithmetic, the same answers on every rank whatever the world's size.
double patterns(gw::World& world) {
  gw::Pattern<2> p({1000, 600}, {gw::BLOCKED, gw::BLOCKCYCLIC(16)}, gw::TeamSpec<2>({4, 2}));
  const int rank = p.owner({17, 300});                         // rank
  const gw::Point<2> local = p.local_coords({17, 300});        // coordinates on the owner
  const gw::Index index = p.local_index({17, 300});            // position in the owner's storage
  const gw::Point<2> global = p.global_coords(rank, local);    // and back
  const gw::Point<2> extents = p.local_extents(rank);          // any rank's local extents
  const gw::Box<2> mine = p.local_range(rank, gw::Box<2>{{0, 290}, {20, 20}});  // rank's cells of a global box
  auto q = gw::make_pattern<3>({64, 64, 64}, world.size());   // BLOCKED, balanced team
  expect(global == gw::Point<2>{17, 300}, "Pattern::global_coords", double(global[1]), 300);
  expect(index < p.local_size(rank), "Pattern::local_index", double(index), double(p.local_size(rank)));
  expect(q.team().size() == world.size(), "make_pattern's team", q.team().size(), world.size());
  return rank + local[0] + local[1] + double(index) + extents[0] + extents[1] + double(mine.size());
}

// "Several grids in one update": every ghost cell of three grids, by one update with one message
// per neighbour and by one with a message per grid, run whole, per grid and split in two.
double several_grids(gw::World& world) {
  const gw::Halo<2> halo(1, gw::Stencil::full, gw::Boundary::periodic);
  gw::Grid<double, 2> u(world, {24, 16}, halo), v(world, {24, 16}, halo), w(world, {24, 16}, halo);
  const gw::Point<2> one{1, 1}, none{0, 0};
  fill(u, 1, one);
  fill(v, 2, one);
  fill(w, 3, one);
  gw::HaloUpdate together({&u, &v, &w});                                    // one message per neighbour
  gw::HaloUpdate separately({&u, &v, &w}, gw::HaloMessages::per_variable);  // one message per grid
  together.run();           // all grids
  check_ghosts(u, 1, one, one, one, "together: u");
  check_ghosts(w, 3, one, one, one, "together: w");
  fill(u, 1, one);
  fill(v, 2, one);
  separately.run(1);        // only v
  check_ghosts(v, 2, one, one, one, "separately.run(1): v");
  check_ghosts(u, 1, one, none, none, "separately.run(1): u untouched");
  auto pending = separately.start(0); /* ... */ pending.wait();
  check_ghosts(u, 1, one, one, one, "separately.start(0): u");
  // A smoothing step that reads every ghost: the same on any decomposition.
  double sum = 0;
  gw::for_each_local(u, [&](const gw::Point<2>& g, double&) {
    const gw::Point<2> l = u.to_local(g);
    sum += u(l[0] - 1, l[1] - 1) + u(l[0] - 1, l[1] + 1) + u(l[0] + 1, l[1] - 1) + u(l[0] + 1, l[1] + 1);
  });
  return global_sum(world, sum);
}

// Particles of mass 1 + p/10 deposited cloud-in-cell into the four cells at and after their cell:
// cells past the block's edge are ghost cells, and the particle's rank is the owner of its cell.
void deposit_particles(gw::Grid<double, 2>& rho, gw::Grid<double, 2>* hits) {
  for (int p = 0; p < 60; ++p) {
    const gw::Point<2> cell{(p * 7) % rho.extent(0), (p * 11) % rho.extent(1)};
    if (rho.pattern().owner(cell) != rho.world().rank()) continue;
    const gw::Point<2> l = rho.to_local(cell);
    for (int di = 0; di < 2; ++di)
      for (int dj = 0; dj < 2; ++dj) {
        rho(l[0] + di, l[1] + dj) += (1 + p / 10.0) * (di ? 0.4 : 0.6) * (dj ? 0.3 : 0.7);
        if (hits) (*hits)(l[0] + di, l[1] + dj) += 1;
      }
  }
}

void clear(gw::Grid<double, 2>& grid) {
  for (gw::Index i = -1; i <= grid.local_extent(0); ++i)
    for (gw::Index j = -1; j <= grid.local_extent(1); ++j) grid(i, j) = 0;
}

// "Reverse updates": the deposits in ghost cells reach the cells they mirror; the deposited field
// is then the same on any decomposition, and so are its weighted sums.
double reverse_updates(gw::World& world) {
  const gw::Halo<2> halo(1, gw::Stencil::full, gw::Boundary::periodic);
  gw::Grid<double, 2> rho(world, {20, 12}, halo), first(world, {20, 12}, halo), hits(world, {20, 12}, halo);
  clear(rho);
  deposit_particles(rho, nullptr);  // writes into ghost cells too
  rho.reverse_halo();               // every ghost's deposit added into the cell it mirrors
  gw::transform(rho, first, [](double x) { return x; });
  clear(rho);
  clear(hits);
  deposit_particles(rho, &hits);
  gw::HaloUpdate both({&rho, &hits});
  auto pending = both.reverse_start(); /* ... */ pending.wait();
  double weighted = 0, mass = 0;
  gw::for_each_local(rho, [&](const gw::Point<2>& g, double& x) {
    const gw::Point<2> l = rho.to_local(g);
    expect(x == first(l[0], l[1]), "reverse_start: the same bits as reverse_halo", x, first(l[0], l[1]));
    weighted += (1 + g[0] + 20.0 * g[1]) * (x + hits(l[0], l[1]));
    mass += x;
  });
  mass = global_sum(world, mass);
  expect(std::abs(mass - 60 * 3.95) < 1e-9, "reverse_halo: the deposited mass", mass, 60 * 3.95);
  return global_sum(world, weighted);
}

// "Staggered fields and partial depths": CloverLeaf's chunk; every ghost cell of every field after
// the updates of depth 1 and 2.
void staggered(gw::World& world) {
  const gw::Index ny = 12, nx = 16;
  const gw::Pattern<2> chunks = gw::make_pattern<2>({ny, nx}, world.size());   // the cells
  auto halo = [](gw::Point<2> width) { return gw::Halo<2>(width, gw::Stencil::full); };
  gw::Grid<double, 2> density(world, chunks, halo({2, 2}));     // cell-centred
  gw::Grid<double, 2> xvel(world, chunks, halo({3, 3}));        // node-centred
  gw::Grid<double, 2> vol_flux_x(world, chunks, halo({2, 3}));  // x faces: node-like in x only
  gw::Grid<double, 2> vol_flux_y(world, chunks, halo({3, 2}));  // y faces

  // The reference's update_halo(fields, depth), built once per depth:
  auto update_of_depth = [&](gw::Index d) {
    return gw::HaloUpdate({{&density, d},
                           {&xvel, gw::HaloDepth::low_high({d, d}, {d + 1, d + 1})},
                           {&vol_flux_x, gw::HaloDepth::low_high({d, d}, {d, d + 1})},
                           {&vol_flux_y, gw::HaloDepth::low_high({d, d}, {d + 1, d})}});
  };
  gw::HaloUpdate depth1 = update_of_depth(1), depth2 = update_of_depth(2);
  auto fill_fields = [&] {
    fill(density, 1, {2, 2});
    fill(xvel, 2, {3, 3});
    fill(vol_flux_x, 3, {2, 3});
    fill(vol_flux_y, 4, {3, 2});
  };
  auto check_fields = [&](gw::Index d) {
    check_ghosts(density, 1, {2, 2}, {d, d}, {d, d}, "staggered: density");
    check_ghosts(xvel, 2, {3, 3}, {d, d}, {d + 1, d + 1}, "staggered: xvel");
    check_ghosts(vol_flux_x, 3, {2, 3}, {d, d}, {d, d + 1}, "staggered: vol_flux_x");
    check_ghosts(vol_flux_y, 4, {3, 2}, {d, d}, {d + 1, d}, "staggered: vol_flux_y");
  };
  fill_fields();
  depth1.run();   // or start()/wait(); per_variable updates can run(g) one grid, to its depth
  check_fields(1);
  fill_fields();
  depth2.run();
  check_fields(2);
}

// "Arrays, copy and copy_async".
double arrays(gw::World& world) {
  const gw::Index n = 24;
  gw::Grid<double, 2> u(world, {16, n}, gw::Halo<2>(1));
  fill(u, 5, {1, 1});
  std::vector<double> rows(2 * n);
  gw::Array<double> a(world, 100000);                                            // BLOCKED
  gw::Array<double> c(world, gw::Pattern<1>({100000}, {gw::BLOCKCYCLIC(4096)}, gw::TeamSpec<1>({world.size()})));
  gw::for_each_local(a, [](gw::Index i, double& y) { y = double(i); });
  for (double& y : a.local()) y *= 2;         // this rank's elements, in global order
  auto [first, last] = a.local_range(100, 200);   // my elements among [100, 200), as local indices
  gw::barrier(world);
  if (world.rank() == 0) a[17] = 2.5;         // GlobalRef: a put to the owner
  gw::barrier(world);                         // between a put and another rank's get
  double x = a[17];

  std::vector<double> buffer(1000);
  gw::copy(a, 5000, 6000, buffer.data());                   // elements [5000, 6000) -> buffer
  auto f = gw::copy_async(a, 6000, 7000, buffer.data());     // f.test(), f.wait(), f.get()
  f.wait();
  gw::copy(buffer.data(), buffer.data() + 1000, c, 1000 * world.rank());  // buffer -> elements of c
  gw::copy(u, gw::Box<2>{{10, 0}, {2, n}}, rows.data());    // grid rows 10 and 11, row-major
  gw::barrier(world);

  expect(x == 2.5, "a[17]", x, 2.5);
  expect(buffer[999] == 2 * 6999.0, "copy_async", buffer[999], 2 * 6999.0);
  expect(rows[n + 3] == value(5, {11, 3}), "copy of grid rows", rows[n + 3], value(5, {11, 3}));
  const double element = c[1000 * world.size() - 1];
  expect(element == 2 * 6999.0, "copy into c", element, 2 * 6999.0);
  return global_sum(world, double(last - first)) + x + buffer[0] + element;  // the shares of [100, 200): 100
}

}  // namespace

int main() {
  gw::World world;
  double checksum = 0;
  {
    checksum += patterns(world);
    checksum += several_grids(world);
    checksum += reverse_updates(world);
    staggered(world);
    checksum += arrays(world);
  }
  const double failed = global_sum(world, failures);
  if (world.rank() == 0) {
    std::printf("dist_tour: %d ranks, %.0f failed checks\n", world.size(), failed);
    if (failed == 0) std::printf("checksum %.6f\n", checksum);
  }
  return 0;
}
