// SPDX-License-Identifier: BSD-3-Clause
// The DLR-F6 dual grid (48 domain files) reassembled: its size, faces, and the closure of its dual
// cells checked against the reference's own partition. Skipped where the data is not next to the
// project (CFDPROXY_F6_DATA, set by tests/cfdproxy/CMakeLists.txt).
#include <gtest/gtest.h>
#include <netcdf.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "mesh.hpp"

namespace cfdproxy {
namespace {

namespace fs = std::filesystem;
using Vector = std::array<double, 3>;

constexpr std::int64_t f6_points = 308899;  // owned points over all domains (the data's README)
constexpr int f6_domains = 48;

class F6Mesh : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!fs::exists(fs::path(CFDPROXY_F6_DATA) / "dualgrid_domain_0_lvl_2")) return;
    stats_ = new ReassemblyStats;
    mesh_ = new Mesh(read_domain_files(CFDPROXY_F6_DATA, *stats_));
  }
  static void TearDownTestSuite() {
    delete mesh_;
    delete stats_;
    mesh_ = nullptr;
    stats_ = nullptr;
  }
  void SetUp() override {
    if (mesh_ == nullptr) GTEST_SKIP() << "no DLR-F6 data at " << CFDPROXY_F6_DATA;
  }

  static const Mesh& mesh() { return *mesh_; }
  static const ReassemblyStats& stats() { return *stats_; }

 private:
  static inline Mesh* mesh_ = nullptr;
  static inline ReassemblyStats* stats_ = nullptr;
};

double length(const Vector& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

// One domain file's owned points: their outgoing normal sums computed from the file alone (an owned
// point has all its faces in its own file: the reference computes its fluxes from them).
struct FileClosure {
  std::vector<Vector> sum;
  std::vector<double> scale;
};

FileClosure closure_in_file(const std::string& path) {
  int file = 0;
  const auto check = [&](int status, const char* what) {
    if (status != NC_NOERR) throw std::runtime_error(path + ": " + what + ": " + nc_strerror(status));
  };
  check(nc_open(path.c_str(), NC_NOWRITE, &file), "nc_open");
  int dimension = 0, variable = 0;
  std::size_t faces = 0, owned = 0;
  check(nc_inq_dimid(file, "nfaces", &dimension), "nfaces");
  check(nc_inq_dimlen(file, dimension, &faces), "nfaces");
  check(nc_inq_dimid(file, "nownpoints", &dimension), "nownpoints");
  check(nc_inq_dimlen(file, dimension, &owned), "nownpoints");
  std::vector<int> points(2 * faces);
  std::vector<double> normals(3 * faces);
  check(nc_inq_varid(file, "fpoint", &variable), "fpoint");
  check(nc_get_var_int(file, variable, points.data()), "fpoint");
  check(nc_inq_varid(file, "fnormal", &variable), "fnormal");
  check(nc_get_var_double(file, variable, normals.data()), "fnormal");
  nc_close(file);

  FileClosure c{std::vector<Vector>(owned, Vector{0, 0, 0}), std::vector<double>(owned, 0.0)};
  for (std::size_t f = 0; f < faces; ++f) {
    const Vector n = {normals[3 * f], normals[3 * f + 1], normals[3 * f + 2]};
    for (int side = 0; side < 2; ++side) {
      const auto point = static_cast<std::size_t>(points[2 * f + static_cast<std::size_t>(side)]);
      if (point >= owned) continue;
      for (std::size_t axis = 0; axis < 3; ++axis) c.sum[point][axis] += side == 0 ? n[axis] : -n[axis];
      c.scale[point] += length(n);
    }
  }
  return c;
}

TEST_F(F6Mesh, SizeAndDomains) {
  EXPECT_EQ(mesh().points, f6_points);
  EXPECT_EQ(mesh().domains, f6_domains);
  ASSERT_EQ(mesh().volumes.size(), static_cast<std::size_t>(f6_points));
  ASSERT_EQ(mesh().domain.size(), static_cast<std::size_t>(f6_points));
  EXPECT_EQ(mesh().normals.size(), mesh().faces.size());
  // Global ids are domain by domain: the domain never decreases along the ids and every one is there.
  EXPECT_TRUE(std::is_sorted(mesh().domain.begin(), mesh().domain.end()));
  EXPECT_EQ(mesh().domain.front(), 0);
  EXPECT_EQ(mesh().domain.back(), f6_domains - 1);
  for (double volume : mesh().volumes) ASSERT_GT(volume, 0.0);
}

TEST_F(F6Mesh, FacesAreDistinctPairsOfDistinctPoints) {
  std::vector<std::array<std::int64_t, 2>> unordered;
  unordered.reserve(mesh().faces.size());
  for (const auto& face : mesh().faces) {
    ASSERT_NE(face[0], face[1]);
    ASSERT_GE(std::min(face[0], face[1]), 0);
    ASSERT_LT(std::max(face[0], face[1]), f6_points);
    unordered.push_back({std::min(face[0], face[1]), std::max(face[0], face[1])});
  }
  std::sort(unordered.begin(), unordered.end());
  EXPECT_EQ(std::adjacent_find(unordered.begin(), unordered.end()), unordered.end());
}

TEST_F(F6Mesh, CrossDomainFacesMergedOnce) {
  // Every listing is either kept or merged into an earlier one; the two files of a domain boundary
  // list its faces from their own sides, so each duplicate is swapped, with the normal negated.
  EXPECT_EQ(stats().face_entries - stats().merged_duplicates, static_cast<std::int64_t>(mesh().faces.size()));
  EXPECT_GT(stats().merged_duplicates, 0);
  EXPECT_EQ(stats().swapped_duplicates, stats().merged_duplicates);
  EXPECT_LE(stats().max_normal_mismatch, 1e-12);
  EXPECT_EQ(stats().max_volume_mismatch, 0.0);
  // A face between two domains joins points of different domains, and there are as many of those
  // as duplicates (each listed by exactly two files).
  std::int64_t crossing = 0;
  for (const auto& face : mesh().faces) {
    crossing += mesh().domain[static_cast<std::size_t>(face[0])] != mesh().domain[static_cast<std::size_t>(face[1])];
  }
  EXPECT_EQ(crossing, stats().merged_duplicates);
}

TEST_F(F6Mesh, DualCellsCloseAsInTheReferencePartition) {
  // The global mesh's normal sums per point, against those of the point's own file, where every
  // face of an owned point is present. The wall and far-field cells are open (their boundary faces
  // are not in these files): the sums must agree for them too, and the closed ones must close.
  std::vector<Vector> sum(static_cast<std::size_t>(mesh().points), Vector{0, 0, 0});
  for (std::size_t f = 0; f < mesh().faces.size(); ++f) {
    for (std::size_t axis = 0; axis < 3; ++axis) {
      sum[static_cast<std::size_t>(mesh().faces[f][0])][axis] += mesh().normals[f][axis];
      sum[static_cast<std::size_t>(mesh().faces[f][1])][axis] -= mesh().normals[f][axis];
    }
  }
  std::int64_t closed = 0, open = 0, first = 0;
  for (int d = 0; d < f6_domains; ++d) {
    const std::string path = std::string(CFDPROXY_F6_DATA) + "/dualgrid_domain_" + std::to_string(d) + "_lvl_2";
    const FileClosure in_file = closure_in_file(path);
    for (std::size_t i = 0; i < in_file.sum.size(); ++i) {
      const Vector& global = sum[static_cast<std::size_t>(first) + i];
      const double scale = in_file.scale[i];
      ASSERT_GT(scale, 0.0) << path << ": owned point " << i;
      double difference = 0;
      for (std::size_t axis = 0; axis < 3; ++axis) {
        difference = std::max(difference, std::abs(global[axis] - in_file.sum[i][axis]));
      }
      ASSERT_LE(difference, 1e-12 * scale) << path << ": owned point " << i << " (global " << first + i << ")";
      const double relative = length(global) / scale;
      if (relative <= 1e-10) ++closed;
      else if (relative >= 1e-6) ++open;
      else ADD_FAILURE() << "point " << first + i << " neither closed nor open: " << relative;
    }
    first += static_cast<std::int64_t>(in_file.sum.size());
  }
  EXPECT_EQ(first, f6_points);
  EXPECT_EQ(closed + open, f6_points);
  // What the F6 data holds (counted once; a reassembly that loses or flips a face changes both).
  EXPECT_EQ(closed, 288003);
  EXPECT_EQ(open, 20896);
}

}  // namespace
}  // namespace cfdproxy
