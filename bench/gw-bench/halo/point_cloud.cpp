// SPDX-License-Identifier: BSD-3-Clause
// The unstructured case: a random point cloud in the unit cube (fixed seed, `points_per_rank` points
// per rank), its k-nearest-neighbour graph (found with a uniform bucket grid, then made symmetric),
// partitioned by METIS_PartGraphKway into one part per rank. Every rank computes all of it
// identically (a checksum of the partition is compared across ranks to be sure).
//
// A rank owns the points of its part, numbered in ascending global id; its ghosts are the points of
// other parts adjacent to one of its own, stored after the owned points, grouped by owner and
// ascending in global id. The owner sends exactly those points, in the same order.
#include "halo_case.hpp"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#if GW_BENCH_HAVE_METIS
#include <metis.h>
#endif

#include "../usage_error.hpp"

namespace gwbench::halo {

bool point_cloud_available() { return GW_BENCH_HAVE_METIS != 0; }

#if GW_BENCH_HAVE_METIS
namespace {

using Point = std::array<double, 3>;

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::vector<Point> random_points(std::size_t count) {
  std::uint64_t state = 20240611;  // fixed: every rank and every run sees the same cloud
  std::vector<Point> points(count);
  for (Point& p : points)
    for (double& x : p) x = static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53;
  return points;
}

// The k nearest neighbours of every point, made symmetric (i ~ j if either is among the other's
// k nearest), as CSR adjacency without self loops.
void knn_graph(const std::vector<Point>& points, int k, std::vector<idx_t>& xadj, std::vector<idx_t>& adjncy) {
  const std::size_t n = points.size();
  const int b = std::max(1, static_cast<int>(std::cbrt(static_cast<double>(n) / 2.0)));  // ~2 points per bucket
  const double h = 1.0 / b;
  auto bucket_of = [&](const Point& p, int a) { return std::min(b - 1, static_cast<int>(p[static_cast<std::size_t>(a)] * b)); };
  auto bucket_index = [&](int x, int y, int z) { return static_cast<std::size_t>(x + b * (y + b * z)); };
  std::vector<std::size_t> start(static_cast<std::size_t>(b) * b * b + 1, 0), members(n);
  for (const Point& p : points) ++start[bucket_index(bucket_of(p, 0), bucket_of(p, 1), bucket_of(p, 2)) + 1];
  for (std::size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
  std::vector<std::size_t> fill(start.begin(), start.end() - 1);
  for (std::size_t i = 0; i < n; ++i)
    members[fill[bucket_index(bucket_of(points[i], 0), bucket_of(points[i], 1), bucket_of(points[i], 2))]++] = i;

  std::vector<std::vector<idx_t>> adjacent(n);
  std::vector<std::pair<double, std::size_t>> best;  // max-heap of the k closest so far
  for (std::size_t i = 0; i < n; ++i) {
    const Point& p = points[i];
    const int c[3] = {bucket_of(p, 0), bucket_of(p, 1), bucket_of(p, 2)};
    best.clear();
    for (int r = 0; r <= b; ++r) {
      // Buckets at Chebyshev distance exactly r from p's bucket.
      for (int dz = -r; dz <= r; ++dz)
        for (int dy = -r; dy <= r; ++dy)
          for (int dx = -r; dx <= r; ++dx) {
            if (std::max({std::abs(dx), std::abs(dy), std::abs(dz)}) != r) continue;
            int x = c[0] + dx, y = c[1] + dy, z = c[2] + dz;
            if (x < 0 || y < 0 || z < 0 || x >= b || y >= b || z >= b) continue;
            std::size_t cell = bucket_index(x, y, z);
            for (std::size_t m = start[cell]; m < start[cell + 1]; ++m) {
              std::size_t j = members[m];
              if (j == i) continue;
              double d2 = 0;
              for (int a = 0; a < 3; ++a) d2 += (points[j][static_cast<std::size_t>(a)] - p[static_cast<std::size_t>(a)]) *
                                                (points[j][static_cast<std::size_t>(a)] - p[static_cast<std::size_t>(a)]);
              if (best.size() < static_cast<std::size_t>(k)) {
                best.emplace_back(d2, j);
                std::push_heap(best.begin(), best.end());
              } else if (std::make_pair(d2, j) < best.front()) {
                std::pop_heap(best.begin(), best.end());
                best.back() = {d2, j};
                std::push_heap(best.begin(), best.end());
              }
            }
          }
      // Points in farther buckets are at least r*h away.
      if (best.size() == static_cast<std::size_t>(k) && best.front().first <= (r * h) * (r * h)) break;
    }
    for (const auto& [d2, j] : best) {
      adjacent[i].push_back(static_cast<idx_t>(j));
      adjacent[j].push_back(static_cast<idx_t>(i));
    }
  }
  xadj.assign(1, 0);
  adjncy.clear();
  for (auto& list : adjacent) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    adjncy.insert(adjncy.end(), list.begin(), list.end());
    xadj.push_back(static_cast<idx_t>(adjncy.size()));
  }
}

std::uint64_t checksum(const std::vector<idx_t>& values) {
  std::uint64_t hash = 1469598103934665603ull;
  for (idx_t v : values) hash = (hash ^ static_cast<std::uint64_t>(v)) * 1099511628211ull;
  return hash;
}

}  // namespace

HaloCase make_point_cloud_case(const CaseSpec& spec, const PointCloudOptions& options, int rank, int size) {
  const std::size_t total = static_cast<std::size_t>(options.points_per_rank) * static_cast<std::size_t>(size);
  if (total > static_cast<std::size_t>(1) << 30)
    throw UsageError("--points " + std::to_string(options.points_per_rank) + " x " + std::to_string(size) +
                     " ranks is more points than the unstructured case supports (2^30)");
  std::vector<idx_t> xadj, adjncy;
  knn_graph(random_points(total), options.neighbours, xadj, adjncy);

  idx_t vertices = static_cast<idx_t>(total), constraints = 1, parts = size, cut = 0;
  idx_t metis_options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(metis_options);
  metis_options[METIS_OPTION_SEED] = 7;  // the same partition on every rank
  std::vector<idx_t> part(total, 0);
  int status = METIS_PartGraphKway(&vertices, &constraints, xadj.data(), adjncy.data(), nullptr, nullptr, nullptr,
                                   &parts, nullptr, nullptr, metis_options, &cut, part.data());
  if (status != METIS_OK)
    throw std::runtime_error("unstructured case: METIS_PartGraphKway failed with status " + std::to_string(status));
  unsigned long long sums[2] = {checksum(part), ~checksum(part)};
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  if (sums[0] != ~sums[1])
    throw std::runtime_error("unstructured case: the METIS partition differs between ranks; every rank must compute "
                             "the same one");

  // Local numbers: the points of each part in ascending global id.
  std::vector<std::size_t> local(total), part_size(static_cast<std::size_t>(size), 0);
  for (std::size_t i = 0; i < total; ++i) local[i] = part_size[static_cast<std::size_t>(part[i])]++;

  HaloCase c;
  c.name = spec.name;
  c.unstructured = true;
  c.global_elements = static_cast<std::int64_t>(total);
  const auto me = static_cast<idx_t>(rank);
  std::vector<std::size_t> ghosts;                                    // global ids
  std::vector<std::vector<std::size_t>> send_lists(static_cast<std::size_t>(size));  // local indices
  std::vector<idx_t> touched;
  for (std::size_t i = 0; i < total; ++i) {
    if (part[i] != me) continue;
    c.ids.push_back(static_cast<std::int64_t>(i));
    touched.clear();
    for (idx_t e = xadj[i]; e < xadj[i + 1]; ++e) {
      auto j = static_cast<std::size_t>(adjncy[static_cast<std::size_t>(e)]);
      if (part[j] == me) continue;
      ghosts.push_back(j);
      touched.push_back(part[j]);
    }
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (idx_t s : touched) send_lists[static_cast<std::size_t>(s)].push_back(local[i]);
  }
  std::sort(ghosts.begin(), ghosts.end(), [&](std::size_t a, std::size_t b) {
    return std::make_pair(part[a], a) < std::make_pair(part[b], b);
  });
  ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());

  c.owned_elements = c.ids.size();
  c.elements = c.owned_elements + ghosts.size();
  c.ghost.assign(c.elements, 0);
  for (std::size_t g = 0; g < ghosts.size(); ++g) {
    c.ids.push_back(static_cast<std::int64_t>(ghosts[g]));
    c.ghost[c.owned_elements + g] = 1;
    c.ghost_map.owner.push_back(static_cast<int>(part[ghosts[g]]));
    c.ghost_map.index.push_back(local[ghosts[g]]);
  }
  for (int s = 0; s < size; ++s)
    if (!send_lists[static_cast<std::size_t>(s)].empty())
      c.sends.push_back({s, 0, ghostwire::Layout::indices(send_lists[static_cast<std::size_t>(s)])});
  for (std::size_t g = 0; g < ghosts.size();) {
    std::size_t end = g;
    std::vector<std::size_t> source;
    while (end < ghosts.size() && part[ghosts[end]] == part[ghosts[g]]) source.push_back(local[ghosts[end++]]);
    Receive r;
    r.neighbour = static_cast<int>(part[ghosts[g]]);
    r.layout = ghostwire::Layout::contiguous(c.owned_elements + g, end - g);
    r.source = ghostwire::Layout::indices(std::move(source));
    c.receives.push_back(std::move(r));
    g = end;
  }
  c.description = std::to_string(total) + " random points (" + std::to_string(options.points_per_rank) +
                  " per rank), " + std::to_string(options.neighbours) + "-nearest-neighbour graph with " +
                  std::to_string(adjncy.size() / 2) + " edges, METIS k-way into " + std::to_string(size) +
                  " parts (edge cut " + std::to_string(cut) + ")";
  return c;
}

#else

HaloCase make_point_cloud_case(const CaseSpec&, const PointCloudOptions&, int, int) {
  throw UsageError("the unstructured case needs METIS, and this gw-bench was built without it (install libmetis-dev "
                   "and reconfigure)");
}

#endif

}  // namespace gwbench::halo
