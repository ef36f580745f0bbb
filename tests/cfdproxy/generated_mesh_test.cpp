// SPDX-License-Identifier: BSD-3-Clause
// generate_mesh: size, faces, numbering and domains, and the geometry of a median dual: the cells
// fill the unit cube, an interior cell is closed (its outgoing normals sum to zero), and the
// Green-Gauss gradient the app computes is exact for a linear field there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <set>

#include "mesh.hpp"

namespace cfdproxy {
namespace {

using Vector = std::array<double, 3>;

std::int64_t side_of(const Mesh& mesh) { return std::llround(std::cbrt(static_cast<double>(mesh.points))); }

double length(const Vector& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

// Per point: the sum of its outgoing normals (+ as a face's first point, - as its second) and the
// sum of their lengths, the scale that sum is small against.
struct Closure {
  std::vector<Vector> sum;
  std::vector<double> scale;
};

Closure closure(const Mesh& mesh) {
  Closure c{std::vector<Vector>(static_cast<std::size_t>(mesh.points), Vector{0, 0, 0}),
            std::vector<double>(static_cast<std::size_t>(mesh.points), 0.0)};
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    const auto p0 = static_cast<std::size_t>(mesh.faces[f][0]);
    const auto p1 = static_cast<std::size_t>(mesh.faces[f][1]);
    for (std::size_t axis = 0; axis < 3; ++axis) {
      c.sum[p0][axis] += mesh.normals[f][axis];
      c.sum[p1][axis] -= mesh.normals[f][axis];
    }
    c.scale[p0] += length(mesh.normals[f]);
    c.scale[p1] += length(mesh.normals[f]);
  }
  return c;
}

bool on_boundary(const Vector& x) {
  for (double coordinate : x) {
    if (coordinate == 0.0 || coordinate == 1.0) return true;
  }
  return false;
}

TEST(GeneratedMesh, SizeIsTheNearestCube) {
  EXPECT_EQ(generate_mesh(1000, 1).points, 1000);
  EXPECT_EQ(generate_mesh(1100, 1).points, 1000);
  EXPECT_EQ(generate_mesh(1200, 1).points, 1331);
  EXPECT_EQ(generate_mesh(1, 1).points, 8);  // at least 2 per side
  EXPECT_EQ(generate_mesh(20000, 48).points, 27 * 27 * 27);
}

TEST(GeneratedMesh, FacesAreTheKuhnEdges) {
  for (const std::int64_t wanted : {8, 27, 1000, 20000}) {
    const Mesh mesh = generate_mesh(wanted, 1);
    const std::int64_t n = side_of(mesh), m = n - 1;
    // 3 axis directions, 3 face diagonals, 1 main diagonal per lattice cube
    const std::int64_t edges = 3 * n * n * m + 3 * n * m * m + m * m * m;
    EXPECT_EQ(static_cast<std::int64_t>(mesh.faces.size()), edges) << n << "^3";
    EXPECT_EQ(mesh.normals.size(), mesh.faces.size());
    std::set<std::array<std::int64_t, 2>> distinct;
    for (const auto& face : mesh.faces) {
      ASSERT_GE(face[0], 0);
      ASSERT_LT(face[0], face[1]);  // from the smaller id to the larger
      ASSERT_LT(face[1], mesh.points);
      distinct.insert(face);
    }
    EXPECT_EQ(distinct.size(), mesh.faces.size());
    EXPECT_TRUE(std::is_sorted(mesh.faces.begin(), mesh.faces.end()));
  }
}

TEST(GeneratedMesh, VolumesFillTheUnitCube) {
  for (const std::int64_t wanted : {8, 1000, 20000}) {
    const Mesh mesh = generate_mesh(wanted, 1);
    double total = 0;
    for (double volume : mesh.volumes) {
      ASSERT_GT(volume, 0.0);
      total += volume;
    }
    EXPECT_NEAR(total, 1.0, 1e-12) << mesh.description;
  }
}

TEST(GeneratedMesh, InteriorDualCellsAreClosed) {
  for (const std::int64_t wanted : {27, 1000, 20000}) {
    std::vector<Vector> x;
    const Mesh mesh = generate_mesh(wanted, 1, x);
    const Closure c = closure(mesh);
    const std::int64_t n = side_of(mesh);
    std::int64_t interior = 0;
    for (std::size_t p = 0; p < static_cast<std::size_t>(mesh.points); ++p) {
      if (on_boundary(x[p])) {
        // A boundary cell is open by its share of the cube's surface.
        EXPECT_GT(length(c.sum[p]), 1e-3 * c.scale[p]) << "boundary point " << p;
      } else {
        ++interior;
        EXPECT_LE(length(c.sum[p]), 1e-12) << "interior point " << p;
        EXPECT_LE(length(c.sum[p]), 1e-12 * c.scale[p]) << "interior point " << p;
      }
    }
    EXPECT_EQ(interior, (n - 2) * (n - 2) * (n - 2));
  }
}

TEST(GeneratedMesh, GreenGaussIsExactForLinearFields) {
  // grad_p = (1/V_p) sum over p's faces of +-normal * (f0 + f1) / 2, as the reference's kernel
  // computes it: exact for a linear f on closed median-dual cells, and only if every normal points
  // from its first point to its second and volumes match the normals.
  std::vector<Vector> x;
  const Mesh mesh = generate_mesh(8000, 1, x);
  const Vector slope = {0.3, -1.7, 2.1};
  const auto f = [&](std::int64_t p) {
    const Vector& at = x[static_cast<std::size_t>(p)];
    return std::inner_product(slope.begin(), slope.end(), at.begin(), 0.0);
  };
  std::vector<Vector> gradient(static_cast<std::size_t>(mesh.points), Vector{0, 0, 0});
  for (std::size_t k = 0; k < mesh.faces.size(); ++k) {
    const auto [p0, p1] = mesh.faces[k];
    const double average = 0.5 * (f(p0) + f(p1));
    for (std::size_t axis = 0; axis < 3; ++axis) {
      gradient[static_cast<std::size_t>(p0)][axis] += mesh.normals[k][axis] * average;
      gradient[static_cast<std::size_t>(p1)][axis] -= mesh.normals[k][axis] * average;
    }
  }
  int checked = 0;
  for (std::size_t p = 0; p < gradient.size(); ++p) {
    if (on_boundary(x[p])) continue;
    for (std::size_t axis = 0; axis < 3; ++axis) {
      ASSERT_NEAR(gradient[p][axis] / mesh.volumes[p], slope[axis], 1e-11) << "point " << p << " axis " << axis;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 18 * 18 * 18);
}

TEST(GeneratedMesh, NormalsPointAlongTheirEdges) {
  std::vector<Vector> x;
  const Mesh mesh = generate_mesh(1000, 1, x);
  for (std::size_t k = 0; k < mesh.faces.size(); ++k) {
    const Vector& a = x[static_cast<std::size_t>(mesh.faces[k][0])];
    const Vector& b = x[static_cast<std::size_t>(mesh.faces[k][1])];
    const double along = mesh.normals[k][0] * (b[0] - a[0]) + mesh.normals[k][1] * (b[1] - a[1]) +
                         mesh.normals[k][2] * (b[2] - a[2]);
    ASSERT_GT(along, 0.0) << "face " << k;
  }
}

TEST(GeneratedMesh, JitterMovesInteriorPointsOnly) {
  std::vector<Vector> x;
  const Mesh mesh = generate_mesh(1000, 1, x);
  const double h = 1.0 / 9;
  int moved = 0;
  for (const Vector& p : x) {
    for (double coordinate : p) {
      const double nearest = std::round(coordinate / h) * h;
      ASSERT_LE(std::abs(coordinate - nearest), 0.15 * h + 1e-15);
      if (std::abs(coordinate - nearest) > 1e-9) ++moved;
    }
  }
  EXPECT_GT(moved, 3 * 8 * 8 * 8 * 9 / 10);  // nearly every interior coordinate
}

TEST(GeneratedMesh, NumberingIsScrambledAndDeterministic) {
  std::vector<Vector> x, y;
  const Mesh a = generate_mesh(1000, 4, x);
  const Mesh b = generate_mesh(1000, 4, y);
  EXPECT_EQ(a.faces, b.faces);
  EXPECT_EQ(a.normals, b.normals);
  EXPECT_EQ(a.volumes, b.volumes);
  EXPECT_EQ(x, y);
  // Lattice order would put point 1 next to point 0 along x; count consecutive ids that are
  // lattice neighbours along x.
  int in_lattice_order = 0;
  for (std::size_t p = 0; p + 1 < x.size(); ++p) {
    if (std::abs(x[p + 1][0] - x[p][0] - 1.0 / 9) < 0.3 / 9 && std::abs(x[p + 1][1] - x[p][1]) < 0.3 / 9) {
      ++in_lattice_order;
    }
  }
  EXPECT_LT(in_lattice_order, 50);
}

TEST(GeneratedMesh, DomainsAreEqualSlabsAlongZ) {
  std::vector<Vector> x;
  const Mesh mesh = generate_mesh(1000, 4, x);
  EXPECT_EQ(mesh.domains, 4);
  // Jitter stays below half a spacing, so rounding z recovers a point's lattice plane.
  std::vector<int> sizes(4, 0);
  std::vector<long> lowest(4, 100), highest(4, -1);
  for (std::size_t p = 0; p < x.size(); ++p) {
    const int d = mesh.domain[p];
    ASSERT_GE(d, 0);
    ASSERT_LT(d, 4);
    const auto k = static_cast<std::size_t>(d);
    ++sizes[k];
    const long plane = std::lround(x[p][2] * 9);
    lowest[k] = std::min(lowest[k], plane);
    highest[k] = std::max(highest[k], plane);
  }
  EXPECT_EQ(sizes, (std::vector<int>{250, 250, 250, 250}));
  // 250 points are 2.5 planes of 100: slab d ends inside the plane where slab d + 1 starts.
  EXPECT_EQ(lowest, (std::vector<long>{0, 2, 5, 7}));
  EXPECT_EQ(highest, (std::vector<long>{2, 4, 7, 9}));
  const Mesh uneven = generate_mesh(1000, 7);
  std::vector<int> counts(7, 0);
  for (std::int32_t d : uneven.domain) ++counts[static_cast<std::size_t>(d)];
  EXPECT_LE(*std::max_element(counts.begin(), counts.end()) - *std::min_element(counts.begin(), counts.end()), 1);
}

TEST(GeneratedMesh, RejectsImpossibleSizes) {
  EXPECT_THROW(generate_mesh(0, 1), MeshError);
  EXPECT_THROW(generate_mesh(-5, 1), MeshError);
  EXPECT_THROW(generate_mesh(1000, 0), MeshError);
  try {
    generate_mesh(27, 48);
    ADD_FAILURE() << "48 domains of 27 points did not throw";
  } catch (const MeshError& error) {
    EXPECT_NE(std::string(error.what()).find("48 domains for 27 points"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace cfdproxy
