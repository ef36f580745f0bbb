// SPDX-License-Identifier: BSD-3-Clause
// Quick start, your own arrays: the Jacobi program of examples/porting/mpi_jacobi.cpp with its halo
// exchange done by a ghostwire::Plan. The arrays (std::vector, ghost cells included), the block
// decomposition (MPI_Cart_create) and the sweep are the MPI program's (porting/jacobi_block.hpp);
// only the exchange changes. It runs the steps three times, with exchange(), with start()/finish()
// around the interior's sweep, and with one plan rebound to the array each step reads, and prints
// the MPI program's checksum when all give it (docs/porting.md).
//
//   scripts/launch -n 2 -- build/examples/quickstart_plan
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "ghostwire/ghostwire.hpp"
#include "porting/jacobi_block.hpp"

// The ranks the block exchanges with, each once (a periodic dimension of 1 or 2 ranks repeats them).
std::vector<int> neighbours_of(const Block& b) {
  std::vector<int> ranks;
  for (int r : {b.south, b.north, b.west, b.east})
    if (r != MPI_PROC_NULL && std::find(ranks.begin(), ranks.end(), r) == ranks.end()) ranks.push_back(r);
  return ranks;
}

// The halo of one array, described once: which cells go to which neighbour, which ghost cells
// each neighbour fills. A channel per direction of travel keeps two messages to one rank apart.
ghostwire::Plan halo_plan(ghostwire::World& world, const Block& b, std::vector<double>& u) {
  using ghostwire::Layout;
  enum { to_north, to_south, to_east, to_west };
  ghostwire::Plan plan(world, neighbours_of(b), 4);
  ghostwire::Region field = plan.add_memory(u.data(), u.size() * sizeof(double), sizeof(double));
  auto row = [&](int y) { return Layout::contiguous(b.at(0, y), b.nx); };
  auto column = [&](int x) { return Layout::box(b.at(x, 0), {std::size_t(b.ny)}, {b.row()}); };
  if (b.north != MPI_PROC_NULL)
    plan.add_send(to_north, b.north, field, row(b.ny - 1)).add_receive(to_south, b.north, field, row(b.ny));
  if (b.south != MPI_PROC_NULL)
    plan.add_send(to_south, b.south, field, row(0)).add_receive(to_north, b.south, field, row(-1));
  if (b.east != MPI_PROC_NULL)
    plan.add_send(to_east, b.east, field, column(b.nx - 1)).add_receive(to_west, b.east, field, column(b.nx));
  if (b.west != MPI_PROC_NULL)
    plan.add_send(to_west, b.west, field, column(0)).add_receive(to_east, b.west, field, column(-1));
  plan.commit();  // collective: checks that both sides of every message agree
  return plan;
}

// Jacobi steps on your arrays, each exchange complete before the sweep.
double jacobi(ghostwire::World& world, const Block& b, MPI_Comm cart) {
  std::vector<double> u(b.cells(), 0.0), unew(b.cells(), 0.0);  // ghost cells at the walls stay 0
  initialise(b, u);
  ghostwire::Plan halo_u = halo_plan(world, b, u);        // a plan per array: a plan keeps
  ghostwire::Plan halo_unew = halo_plan(world, b, unew);  // the address it was built on
  for (int step = 0; step < STEPS; ++step) {
    halo_u.exchange();  // u's ghost cells now hold the neighbours' edge cells
    jacobi_sweep(b, u, unew);
    std::swap(u, unew);            // the arrays trade names,
    std::swap(halo_u, halo_unew);  // and each plan goes with its array
  }
  return checksum(b, u, cart);
}

// The same with the exchange overlapped with the sweep of the cells that read no ghost cell.
double jacobi_overlapped(ghostwire::World& world, const Block& b, MPI_Comm cart) {
  std::vector<double> u(b.cells(), 0.0), unew(b.cells(), 0.0);
  initialise(b, u);
  ghostwire::Plan halo_u = halo_plan(world, b, u), halo_unew = halo_plan(world, b, unew);
  for (int step = 0; step < STEPS; ++step) {
    halo_u.start();              // until finish(): write none of u's edge cells, touch none of its ghost cells
    sweep_interior(b, u, unew);  // reads no ghost cell
    halo_u.finish();             // ghost cells filled; u is yours again
    sweep_rim(b, u, unew);
    std::swap(u, unew);
    std::swap(halo_u, halo_unew);
  }
  return checksum(b, u, cart);
}

// One plan for both arrays: after each swap it is told where its array went (Plan::rebind).
double jacobi_rebind(ghostwire::World& world, const Block& b, MPI_Comm cart) {
  std::vector<double> u(b.cells(), 0.0), unew(b.cells(), 0.0);
  initialise(b, u);
  ghostwire::Plan halo = halo_plan(world, b, u);
  const ghostwire::Region field{0};  // halo_plan's one add_memory
  for (int step = 0; step < STEPS; ++step) {
    halo.exchange();
    jacobi_sweep(b, u, unew);
    std::swap(u, unew);
    halo.rebind(field, u.data());  // the next exchange fills the array u names now
  }
  return checksum(b, u, cart);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm cart = make_cart();
  const Block b = decompose(cart);
  double whole = 0, overlapped = 0, rebound = 0;
  {
    ghostwire::World world(cart);  // the same ranks as cart
    whole = jacobi(world, b, cart);
    overlapped = jacobi_overlapped(world, b, cart);
    rebound = jacobi_rebind(world, b, cart);
  }  // the world is freed here (collectively), before MPI_Finalize
  int rank, size, status = 0;
  MPI_Comm_rank(cart, &rank);
  MPI_Comm_size(cart, &size);
  if (rank == 0) {
    std::printf("quickstart_plan: %d x %d, %d steps, %d ranks\n", NX, NY, STEPS, size);
    if (whole == overlapped && whole == rebound) {
      std::printf("checksum %.6f\n", whole);
    } else {
      std::printf("quickstart_plan: exchange() gave %.17g, start()/finish() %.17g, one plan rebound %.17g\n", whole,
                  overlapped, rebound);
      status = 1;
    }
  }
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return status;
}
