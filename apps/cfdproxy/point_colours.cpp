// SPDX-License-Identifier: BSD-3-Clause
// compute_point_colours (point_colours.hpp): breadth-first walks through each original domain, cut
// into colours of a fixed number of points. A walk keeps neighbours together, so a run of
// consecutive colours is a compact piece of the domain and two threads' runs share few faces.
#include "point_colours.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace cfdproxy {
namespace {

// The point graph in compressed rows: the neighbours of p are neighbour[start[p] .. start[p+1]),
// ascending.
struct Adjacency {
  std::vector<std::int64_t> start;
  std::vector<std::int64_t> neighbour;
};

Adjacency adjacency(const Mesh& mesh) {
  const auto n = static_cast<std::size_t>(mesh.points);
  Adjacency a;
  a.start.assign(n + 1, 0);
  for (const auto& f : mesh.faces) {
    ++a.start[static_cast<std::size_t>(f[0]) + 1];
    ++a.start[static_cast<std::size_t>(f[1]) + 1];
  }
  for (std::size_t p = 0; p < n; ++p) a.start[p + 1] += a.start[p];
  a.neighbour.resize(static_cast<std::size_t>(a.start[n]));
  std::vector<std::int64_t> fill(a.start.begin(), a.start.end() - 1);
  for (const auto& f : mesh.faces) {
    a.neighbour[static_cast<std::size_t>(fill[static_cast<std::size_t>(f[0])]++)] = f[1];
    a.neighbour[static_cast<std::size_t>(fill[static_cast<std::size_t>(f[1])]++)] = f[0];
  }
  for (std::size_t p = 0; p < n; ++p)
    std::sort(a.neighbour.begin() + a.start[p], a.neighbour.begin() + a.start[p + 1]);
  return a;
}

// Each domain's points in ascending id: the walks' seeds.
std::vector<std::vector<std::int64_t>> points_by_domain(const Mesh& mesh) {
  std::vector<std::vector<std::int64_t>> points(static_cast<std::size_t>(std::max(mesh.domains, 1)));
  for (std::int64_t g = 0; g < mesh.points; ++g) {
    const std::int32_t d = mesh.domain.empty() ? 0 : mesh.domain[static_cast<std::size_t>(g)];
    if (d < 0 || static_cast<std::size_t>(d) >= points.size())
      throw MeshError("point colours: point " + std::to_string(g) + " is in domain " + std::to_string(d) +
                      ", outside [0, " + std::to_string(points.size()) + ")");
    points[static_cast<std::size_t>(d)].push_back(g);
  }
  return points;
}

}  // namespace

void compute_point_colours(Mesh& mesh, std::int32_t points_per_colour) {
  if (points_per_colour < 1)
    throw MeshError("point colours: points per colour must be at least 1, got " + std::to_string(points_per_colour));
  const Adjacency graph = adjacency(mesh);
  std::vector<std::int32_t> colour(static_cast<std::size_t>(mesh.points), -1);
  std::vector<char> queued(colour.size(), 0);
  std::vector<std::int64_t> queue;
  std::int32_t colours = 0;
  for (const std::vector<std::int64_t>& domain : points_by_domain(mesh)) {
    std::int32_t filled = points_per_colour;  // a domain starts a colour of its own
    for (const std::int64_t seed : domain) {
      if (queued[static_cast<std::size_t>(seed)]) continue;
      queue.assign(1, seed);
      queued[static_cast<std::size_t>(seed)] = 1;
      const std::int32_t d = mesh.domain.empty() ? 0 : mesh.domain[static_cast<std::size_t>(seed)];
      for (std::size_t head = 0; head < queue.size(); ++head) {
        const auto p = static_cast<std::size_t>(queue[head]);
        if (filled == points_per_colour) {
          ++colours;
          filled = 0;
        }
        colour[p] = colours - 1;
        ++filled;
        for (std::int64_t k = graph.start[p]; k < graph.start[p + 1]; ++k) {
          const auto q = static_cast<std::size_t>(graph.neighbour[static_cast<std::size_t>(k)]);
          const std::int32_t dq = mesh.domain.empty() ? 0 : mesh.domain[q];
          if (!queued[q] && dq == d) {
            queued[q] = 1;
            queue.push_back(static_cast<std::int64_t>(q));
          }
        }
      }
    }
  }
  mesh.colour = std::move(colour);
  mesh.colours = colours;
  mesh.colour_source = "computed";
}

}  // namespace cfdproxy
