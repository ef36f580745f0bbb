// SPDX-License-Identifier: BSD-3-Clause
// generate_mesh: an unstructured mesh with the structure of the F6 dual grid, any size, no files.
//
// Points: an n x n x n lattice in the unit cube (spacing h = 1 / (n - 1)); every interior point is
// moved by a pseudo-random jitter of at most 0.15 h per axis, so the mesh is not a regular grid but
// no tetrahedron turns over: a Kuhn tetrahedron's determinant (h^3 for the undisturbed lattice)
// stays at least 0.1 h^3 under any such jitter of its four corners (the determinant is affine in
// each coordinate, so its minimum is at a corner of the jitter box; at 0.2 h it can reach -0.2 h^3).
// Boundary points stay on the cube's faces, so the cells fill the box exactly.
//
// Cells: every lattice cube split into 6 tetrahedra along its main diagonal (Kuhn/Freudenthal: one
// per order of the three axes, the path (0,0,0) -> +e_a -> +e_b -> (1,1,1)). The split is the same in
// every cube, so neighbouring cubes' tetrahedra share whole faces and every tetrahedron edge joins a
// lattice point to the one at an offset in {0,1}^3: 7 edges per point, 14 neighbours inside.
//
// Dual: the median dual, as a vertex-centred finite-volume code builds it. A face of the point
// graph is a tetrahedron edge; its normal is the area vector of its dual facet, summed over the
// tetrahedra around the edge, each contributing the two triangles (edge midpoint, centroid of one of
// the two tetrahedron faces containing the edge, tetrahedron centroid). For edge ab of tetrahedron
// abcd that pair of triangles has the area vector (c + d - a - b) x (d - c) / 24 up to sign, and its
// dot product with b - a is half the tetrahedron's volume, so the sign that points from a to b is
// never in doubt. A point's dual volume is a quarter of each of its tetrahedra.
//
// Numbering: points get ids in a fixed pseudo-random order (a Fisher-Yates shuffle driven by
// splitmix64 with a fixed seed), so nothing can lean on lattice order; a face runs from its smaller
// id to its larger one (as in the F6 files) and faces are sorted by (p0, p1). Domains:
// `domains` slabs along z, i.e. the lattice in z-major order cut into runs of equal numbers of
// points (sizes differ by at most one; a slab may end inside a z plane).
//
// See docs/cfdproxy.md, "The generated mesh".
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mesh.hpp"
#include "point_colours.hpp"

namespace cfdproxy {
namespace {

using Vector = std::array<double, 3>;

constexpr double jitter_fraction = 0.15;  // of the spacing, per axis (see above)
constexpr std::uint64_t jitter_seed = 0x6a09e667f3bcc908ULL;
constexpr std::uint64_t numbering_seed = 0xbb67ae8584caa73bULL;
constexpr std::int64_t max_points = 1'000'000'000;

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

Vector operator-(const Vector& a, const Vector& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Vector operator+(const Vector& a, const Vector& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
Vector cross(const Vector& a, const Vector& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Vector& a, const Vector& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// The lattice, its points indexed in z-major order: index = i + n (j + n k).
class Lattice {
 public:
  explicit Lattice(std::size_t side) : side_(side), spacing_(1.0 / static_cast<double>(side - 1)) {}

  std::size_t side() const { return side_; }
  std::size_t points() const { return side_ * side_ * side_; }
  std::size_t index(std::size_t i, std::size_t j, std::size_t k) const { return i + side_ * (j + side_ * k); }

  // Where point (i, j, k) is: on the lattice, interior points jittered.
  Vector position(std::size_t i, std::size_t j, std::size_t k) const {
    Vector x = {static_cast<double>(i) * spacing_, static_cast<double>(j) * spacing_,
                static_cast<double>(k) * spacing_};
    const bool interior = i > 0 && j > 0 && k > 0 && i < side_ - 1 && j < side_ - 1 && k < side_ - 1;
    if (!interior) return x;
    for (std::size_t axis = 0; axis < 3; ++axis) {
      std::uint64_t state = jitter_seed ^ (3 * index(i, j, k) + axis);
      const double unit = static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53;  // [0, 1)
      x[axis] += jitter_fraction * spacing_ * (2 * unit - 1);
    }
    return x;
  }

 private:
  std::size_t side_;
  double spacing_;
};

using Offset = std::array<std::size_t, 3>;  // a step in {0,1}^3 from a lattice point

// The 7 edges leaving a lattice point towards larger coordinates, by slot = dx + 2 dy + 4 dz - 1.
constexpr std::size_t edge_slots = 7;
std::size_t edge_slot(const Offset& step) { return step[0] + 2 * step[1] + 4 * step[2] - 1; }
Offset edge_step(std::size_t slot) { return {(slot + 1) & 1, ((slot + 1) >> 1) & 1, ((slot + 1) >> 2) & 1}; }

// The tetrahedron edges of the lattice, numbered, and the number of each (point, slot).
struct LatticeEdges {
  std::vector<std::array<std::size_t, 2>> ends;  // lattice indices, from low to high coordinates
  std::vector<std::size_t> at_slot;              // point * edge_slots + slot -> edge (unused slots: 0)

  explicit LatticeEdges(const Lattice& lattice) : at_slot(lattice.points() * edge_slots, 0) {
    const std::size_t n = lattice.side();
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t i = 0; i < n; ++i) {
          for (std::size_t slot = 0; slot < edge_slots; ++slot) {
            const Offset step = edge_step(slot);
            if (i + step[0] >= n || j + step[1] >= n || k + step[2] >= n) continue;
            at_slot[lattice.index(i, j, k) * edge_slots + slot] = ends.size();
            ends.push_back({lattice.index(i, j, k), lattice.index(i + step[0], j + step[1], k + step[2])});
          }
        }
      }
    }
  }
};

// One of the 6 Kuhn tetrahedra of a cube: its corners as steps from the cube's low corner, and for
// each of its 6 edges (a, b) with a before b on the path: the other two corners and the edge's slot.
struct Tetrahedron {
  struct Edge {
    std::size_t a, b, c, d;
    std::size_t slot;
  };
  std::array<Offset, 4> corner{};
  std::vector<Edge> edges;
  double orientation = 0;  // sign of its determinant in the undisturbed lattice

  explicit Tetrahedron(const std::array<std::size_t, 3>& axis_order) {
    for (std::size_t step = 1; step < 4; ++step) {
      corner[step] = corner[step - 1];
      corner[step][axis_order[step - 1]] = 1;
    }
    const auto as_vector = [](const Offset& v) {
      return Vector{static_cast<double>(v[0]), static_cast<double>(v[1]), static_cast<double>(v[2])};
    };
    orientation = dot(as_vector(corner[1]), cross(as_vector(corner[2]), as_vector(corner[3])));
    for (std::size_t a = 0; a < 4; ++a) {
      for (std::size_t b = a + 1; b < 4; ++b) {
        std::array<std::size_t, 2> others{};
        std::size_t count = 0;
        for (std::size_t c = 0; c < 4; ++c) {
          if (c != a && c != b) others[count++] = c;
        }
        const Offset step = {corner[b][0] - corner[a][0], corner[b][1] - corner[a][1], corner[b][2] - corner[a][2]};
        edges.push_back({a, b, others[0], others[1], edge_slot(step)});
      }
    }
  }
};

// Median-dual normals (per edge, oriented low -> high lattice corner) and volumes (per point).
void add_dual(const Lattice& lattice, const std::vector<Vector>& position, const LatticeEdges& lattice_edges,
              std::vector<Vector>& normals, std::vector<double>& volumes) {
  static constexpr std::array<std::array<std::size_t, 3>, 6> axis_orders = {
      {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
  normals.assign(lattice_edges.ends.size(), Vector{0, 0, 0});
  volumes.assign(lattice.points(), 0.0);
  const std::size_t cubes = lattice.side() - 1;
  for (const auto& order : axis_orders) {
    const Tetrahedron tetrahedron(order);
    for (std::size_t k = 0; k < cubes; ++k) {
      for (std::size_t j = 0; j < cubes; ++j) {
        for (std::size_t i = 0; i < cubes; ++i) {
          std::array<std::size_t, 4> at{};
          std::array<Vector, 4> x;
          for (std::size_t c = 0; c < 4; ++c) {
            const Offset& step = tetrahedron.corner[c];
            at[c] = lattice.index(i + step[0], j + step[1], k + step[2]);
            x[c] = position[at[c]];
          }
          const double determinant = dot(x[1] - x[0], cross(x[2] - x[0], x[3] - x[0]));
          if (!(determinant * tetrahedron.orientation > 0)) {
            throw std::logic_error("generate_mesh: a tetrahedron of cube (" + std::to_string(i) + ", " +
                                   std::to_string(j) + ", " + std::to_string(k) + ") turned over");
          }
          for (std::size_t c = 0; c < 4; ++c) volumes[at[c]] += std::abs(determinant) / 24;  // a quarter each
          for (const auto& edge : tetrahedron.edges) {
            const Vector& xc = x[edge.c];
            const Vector& xd = x[edge.d];
            const Vector facet = cross(xc + xd - x[edge.a] - x[edge.b], xd - xc);
            const double factor = dot(facet, x[edge.b] - x[edge.a]) < 0 ? -1.0 / 24 : 1.0 / 24;  // a -> b
            Vector& normal = normals[lattice_edges.at_slot[at[edge.a] * edge_slots + edge.slot]];
            for (std::size_t axis = 0; axis < 3; ++axis) normal[axis] += factor * facet[axis];
          }
        }
      }
    }
  }
}

// Point ids: a fixed shuffle of the lattice indices.
std::vector<std::size_t> scrambled_ids(std::size_t points) {
  std::vector<std::size_t> id(points);
  std::iota(id.begin(), id.end(), std::size_t{0});
  std::uint64_t state = numbering_seed;
  for (std::size_t k = points - 1; k > 0; --k) std::swap(id[k], id[splitmix64(state) % (k + 1)]);
  return id;
}

}  // namespace

Mesh generate_mesh(std::int64_t approximate_points, int domains) {
  std::vector<Vector> positions;
  return generate_mesh(approximate_points, domains, positions);
}

Mesh generate_mesh(std::int64_t approximate_points, int domains, std::vector<Vector>& positions) {
  if (approximate_points < 1 || approximate_points > max_points) {
    throw MeshError("generated mesh: " + std::to_string(approximate_points) + " points; expected 1 to " +
                    std::to_string(max_points));
  }
  const auto side = std::max<long long>(2, std::llround(std::cbrt(static_cast<double>(approximate_points))));
  const Lattice lattice(static_cast<std::size_t>(side));
  const std::size_t points = lattice.points();
  if (domains < 1 || static_cast<std::size_t>(domains) > points) {
    throw MeshError("generated mesh: " + std::to_string(domains) + " domains for " + std::to_string(points) +
                    " points (" + std::to_string(side) + "^3); expected 1 to " + std::to_string(points));
  }

  std::vector<Vector> lattice_position(points);
  for (std::size_t k = 0; k < lattice.side(); ++k) {
    for (std::size_t j = 0; j < lattice.side(); ++j) {
      for (std::size_t i = 0; i < lattice.side(); ++i) {
        lattice_position[lattice.index(i, j, k)] = lattice.position(i, j, k);
      }
    }
  }
  std::vector<Vector> normals;
  std::vector<double> volumes;
  std::vector<std::array<std::size_t, 2>> edges;
  {
    LatticeEdges lattice_edges(lattice);
    add_dual(lattice, lattice_position, lattice_edges, normals, volumes);
    edges = std::move(lattice_edges.ends);
  }

  const std::vector<std::size_t> id = scrambled_ids(points);
  Mesh mesh;
  mesh.points = static_cast<std::int64_t>(points);
  mesh.domains = domains;
  mesh.volumes.resize(points);
  mesh.domain.resize(points);
  positions.assign(points, Vector{0, 0, 0});
  for (std::size_t p = 0; p < points; ++p) {
    positions[id[p]] = lattice_position[p];
    mesh.volumes[id[p]] = volumes[p];
    mesh.domain[id[p]] = static_cast<std::int32_t>(p * static_cast<std::size_t>(domains) / points);  // z slabs
  }
  // Faces from the smaller id to the larger, sorted.
  std::vector<std::array<std::int64_t, 2>> faces(edges.size());
  for (std::size_t f = 0; f < edges.size(); ++f) {
    faces[f] = {static_cast<std::int64_t>(id[edges[f][0]]), static_cast<std::int64_t>(id[edges[f][1]])};
    if (faces[f][0] > faces[f][1]) {
      std::swap(faces[f][0], faces[f][1]);
      for (double& component : normals[f]) component = -component;
    }
  }
  std::vector<std::size_t> order(faces.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return faces[a] < faces[b]; });
  mesh.faces.reserve(order.size());
  mesh.normals.reserve(order.size());
  for (std::size_t f : order) {
    mesh.faces.push_back(faces[f]);
    mesh.normals.push_back(normals[f]);
  }
  mesh.description = "generated tetrahedral mesh of the unit cube (" + std::to_string(side) + "^3 = " +
                     std::to_string(points) + " points, " + std::to_string(mesh.faces.size()) + " faces, " +
                     std::to_string(domains) + " z-slab domains)";
  compute_point_colours(mesh);
  return mesh;
}

}  // namespace cfdproxy
