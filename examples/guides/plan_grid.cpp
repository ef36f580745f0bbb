// SPDX-License-Identifier: BSD-3-Clause
// docs/plans.md's first example: Jacobi steps on a 2-D grid split into blocks, the halo exchanged
// through ghostwire plans. Two arrays take turns (double buffering), so there are two plans, one per
// array: a plan exchanges the memory it was built on.
//
//   scripts/launch -n 2 -- build/examples/guides/plan_grid [steps=50] [overlap] [node]
//
// `overlap` splits each exchange in start() and finish() around the interior cells; `node` asks for
// one message per pair of nodes (visible on emulated nodes: scripts/launch --path emulated --rpn 1)
// and prints what the plan chose. The checksum is a fingerprint of every cell's bits at its global
// position: the same on any number of ranks, and changed by a single stale or misplaced ghost.
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "ghostwire/ghostwire.hpp"

namespace {

constexpr int NX = 64, NY = 48;  // the global grid, without its boundary

// Rank `index` of `parts` gets cells [first, first + count) of `n`: the first n % parts one more.
struct Share {
  int first, count;
};
Share share(int n, int parts, int index) {
  const int base = n / parts, extra = n % parts;
  return {index * base + (index < extra ? index : extra), base + (index < extra ? 1 : 0)};
}

// A start value at every global cell, the boundary included (x or y of -1, NX or NY): never zero and
// different from its neighbours, so every ghost a step reads matters to the result.
double start_value(int x, int y) { return static_cast<double>(((x + 1) * 7 + (y + 1) * 13) % 17 + 1) / 16.0; }

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 50;
  bool overlap = false, node = false;
  for (int i = 2; i < argc; ++i) {
    overlap = overlap || std::string(argv[i]) == "overlap";
    node = node || std::string(argv[i]) == "node";
  }

  ghostwire::World world;  // wraps MPI_COMM_WORLD (and initialises MPI)
  int dims[2] = {0, 0};
  MPI_Dims_create(world.size(), 2, dims);
  const int px = world.rank() % dims[0], py = world.rank() / dims[0];
  const Share sx = share(NX, dims[0], px), sy = share(NY, dims[1], py);
  const int nx = sx.count, ny = sy.count;                   // this rank's block
  const std::size_t row = nx + 2;                          // a ghost layer of width 1 around it
  auto at = [&](int x, int y) { return (y + 1) * row + (x + 1); };

  auto rank_of = [&](int x, int y) { return x < 0 || y < 0 || x >= dims[0] || y >= dims[1] ? -1 : y * dims[0] + x; };
  const int west = rank_of(px - 1, py), east = rank_of(px + 1, py);
  const int south = rank_of(px, py - 1), north = rank_of(px, py + 1);
  std::vector<int> neighbours;
  for (int r : {west, east, south, north})
    if (r >= 0) neighbours.push_back(r);

  // Two arrays, in Segments: a node peer reads a row where it lies, without packing it first.
  ghostwire::Segment memory[2] = {{world, row * (ny + 2) * sizeof(double)}, {world, row * (ny + 2) * sizeof(double)}};
  double* u[2] = {memory[0].as<double>().data(), memory[1].as<double>().data()};

  enum { to_west, to_east, to_south, to_north };  // channels: the direction a message travels
  auto make_plan = [&](ghostwire::Segment& segment) {
    ghostwire::Plan plan(world, neighbours, 4);
    const ghostwire::Region grid = plan.add_memory(segment, sizeof(double));
    using ghostwire::Layout;
    auto column = [&](int x) { return Layout::box(at(x, 0), {1, std::size_t(ny)}, {1, std::ptrdiff_t(row)}); };
    auto line = [&](int y) { return Layout::contiguous(at(0, y), nx); };
    if (west >= 0) plan.add_send(to_west, west, grid, column(0)).add_receive(to_east, west, grid, column(-1));
    if (east >= 0) plan.add_send(to_east, east, grid, column(nx - 1)).add_receive(to_west, east, grid, column(nx));
    if (south >= 0) plan.add_send(to_south, south, grid, line(0)).add_receive(to_north, south, grid, line(-1));
    if (north >= 0) plan.add_send(to_north, north, grid, line(ny - 1)).add_receive(to_south, north, grid, line(ny));
    if (node) plan.aggregate(ghostwire::Aggregation::node);  // one message per pair of nodes and channel
    plan.commit();                                           // collective: checks both sides of every slot
    return plan;
  };
  ghostwire::Plan plans[2] = {make_plan(memory[0]), make_plan(memory[1])};  // plans[i] exchanges u[i]

  // Both arrays start alike; cells on the global boundary keep their value for the whole run.
  for (int y = -1; y <= ny; ++y)
    for (int x = -1; x <= nx; ++x) u[0][at(x, y)] = u[1][at(x, y)] = start_value(sx.first + x, sy.first + y);

  // One Jacobi update of the cells [x0, x1) x [y0, y1) from `from` into `to`.
  auto sweep = [&](const double* from, double* to, int x0, int x1, int y0, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x)
        to[at(x, y)] = 0.25 * (((from[at(x, y - 1)] + from[at(x, y + 1)]) + from[at(x - 1, y)]) + from[at(x + 1, y)]);
  };

  for (int step = 0; step < steps; ++step) {
    const int now = step % 2, next = 1 - now;  // this step reads u[now] and writes u[next]
    if (!overlap) {
      plans[now].exchange();  // the ghosts of u[now] hold the neighbours' cells
      sweep(u[now], u[next], 0, nx, 0, ny);
    } else {
      plans[now].start();                               // u[now]'s owned cells are sent as they are
      sweep(u[now], u[next], 1, nx - 1, 1, ny - 1);     // the interior reads no ghost
      plans[now].finish();                              // now the ghosts are in
      sweep(u[now], u[next], 0, nx, 0, 1);              // then the rim: first and last row,
      sweep(u[now], u[next], 0, nx, ny - 1, ny);
      sweep(u[now], u[next], 0, 1, 1, ny - 1);          // first and last column
      sweep(u[now], u[next], nx - 1, nx, 1, ny - 1);
    }
  }
  const double* result = u[steps % 2];

  double heat = 0;
  std::uint64_t fingerprint = 0;  // wraps around: the same whatever order the cells are added in
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) {
      const std::uint64_t cell = static_cast<std::uint64_t>(sy.first + y) * NX + static_cast<std::uint64_t>(sx.first + x);
      fingerprint += std::bit_cast<std::uint64_t>(result[at(x, y)]) * (2 * cell + 1);
      heat += result[at(x, y)];
    }
  MPI_Allreduce(MPI_IN_PLACE, &fingerprint, 1, MPI_UINT64_T, MPI_SUM, world.comm());
  ghostwire::allreduce(world, std::span<double>(&heat, 1), ghostwire::ReduceOp::sum);
  if (node && world.rank() == 0) std::printf("%s", plans[0].describe().c_str());
  if (world.rank() == 0) {
    std::printf("plan_grid: %d x %d cells, %d rank(s) as %d x %d blocks, %d steps, %s\n", NX, NY, world.size(),
                dims[0], dims[1], steps, overlap ? "start/finish around the interior" : "exchange");
    std::printf("heat %.6f\n", heat);
    std::printf("checksum %llu\n", static_cast<unsigned long long>(fingerprint));
  }
  return 0;
}
