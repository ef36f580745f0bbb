// SPDX-License-Identifier: BSD-3-Clause
// docs/plans.md's unstructured example: a mesh given only by where each ghost comes from
// (make_unstructured_plan, as PetscSF's leaves and roots), a few steps that read the ghosts, then the
// reverse exchange: contributions deposited into ghost cells are added into their owners' elements.
//
//   scripts/launch -n 2 -- build/examples/guides/plan_unstructured [steps=20]
//
// The mesh: N points on a ring, point i joined to i +- 1 and i +- 97, split into blocks of
// consecutive points. Values are whole numbers, so every sum is exact: the checksum is the same on
// any number of ranks, and a stale, lost, misplaced or doubled ghost value changes it.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ghostwire/ghostwire.hpp"

namespace {

constexpr long N = 1200;        // points in the whole mesh
constexpr double M = 1000003;   // values stay below M: whole numbers, exact in a double

long first_of(int rank, int ranks) { return N * rank / ranks; }  // rank r owns [first_of(r), first_of(r + 1))
int owner_of(long point, int ranks) {
  int r = static_cast<int>(point * ranks / N);
  while (first_of(r + 1, ranks) <= point) ++r;  // (the division may land one block low)
  return r;
}
std::vector<long> neighbours_of(long i) { return {(i + 1) % N, (i + N - 1) % N, (i + 97) % N, (i + N - 97) % N}; }

}  // namespace

int main(int argc, char** argv) {
  const int steps = argc > 1 ? std::atoi(argv[1]) : 20;
  ghostwire::World world;
  const int rank = world.rank(), ranks = world.size();
  const long first = first_of(rank, ranks), n_owned = first_of(rank + 1, ranks) - first;

  // This rank's ghosts: the points of other ranks joined to one of its own, in ascending order.
  std::vector<long> ghost_points;
  for (long i = first; i < first + n_owned; ++i)
    for (long j : neighbours_of(i))
      if (owner_of(j, ranks) != rank) ghost_points.push_back(j);
  std::sort(ghost_points.begin(), ghost_points.end());
  ghost_points.erase(std::unique(ghost_points.begin(), ghost_points.end()), ghost_points.end());
  const std::size_t n_ghosts = ghost_points.size();

  ghostwire::Segment values(world, (n_owned + n_ghosts) * sizeof(double));  // owned values, then ghosts
  double* owned = values.as<double>().data();
  double* ghosts = owned + n_owned;                                          // filled by the exchange
  ghostwire::GhostMap map;
  for (long g : ghost_points) {
    map.owner.push_back(owner_of(g, ranks));
    map.index.push_back(static_cast<std::size_t>(g - first_of(owner_of(g, ranks), ranks)));
  }
  ghostwire::Plan plan = ghostwire::make_unstructured_plan(world, values, 0, n_owned, ghosts, map,
                                                           sizeof(double));
  plan.enable_reverse();  // collective, as the plan is committed already

  // Where point j's value is on this rank: owned, or its ghost entry.
  auto local = [&](long j) -> double& {
    if (j >= first && j < first + n_owned) return owned[j - first];
    return ghosts[std::lower_bound(ghost_points.begin(), ghost_points.end(), j) - ghost_points.begin()];
  };

  // Forward: every step reads the neighbours' values, ghosts included.
  for (long i = first; i < first + n_owned; ++i) owned[i - first] = static_cast<double>((i * 7919) % 1000 + 1);
  std::vector<double> next(n_owned);
  for (int step = 0; step < steps; ++step) {
    plan.exchange();  // ghosts[i] = owner[i]'s owned[index[i]]
    for (long i = first; i < first + n_owned; ++i) {
      double sum = owned[i - first];
      for (long j : neighbours_of(i)) sum += local(j);
      next[i - first] = std::fmod(sum, M);
    }
    std::copy(next.begin(), next.end(), owned);  // copied back: the plan exchanges this memory
  }
  double checksum = 0;
  for (long i = first; i < first + n_owned; ++i) checksum += owned[i - first] * static_cast<double>(i + 1);

  // Reverse: each point deposits a share into each neighbour, owned or ghost; the reverse exchange
  // adds every ghost's deposits into its owner's element.
  std::fill(owned, owned + n_owned + n_ghosts, 0.0);
  for (long i = first; i < first + n_owned; ++i)
    for (long j : neighbours_of(i)) local(j) += static_cast<double>((i * 31 + j) % 101 + 1);
  plan.reverse_exchange({ghostwire::ReduceOp::sum, ghostwire::ScalarType::float64});
  for (long i = first; i < first + n_owned; ++i) checksum += owned[i - first] * static_cast<double>(i + 1);

  ghostwire::allreduce(world, std::span<double>(&checksum, 1), ghostwire::ReduceOp::sum);
  if (rank == 0) {
    std::printf("plan_unstructured: %ld points, %d rank(s), %d steps, then a reverse exchange\n", N, ranks, steps);
    std::printf("checksum %.0f\n", checksum);
  }
  return 0;
}
