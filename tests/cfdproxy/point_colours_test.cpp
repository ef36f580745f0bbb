// SPDX-License-Identifier: BSD-3-Clause
// Point colours (point_colours.hpp): the domain files' fcolor_points read into global colours and
// checked, computed colours for meshes without them (each colour inside one original domain, every
// point in exactly one), and the DLR-F6 files' colours (skipped where the data is absent).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <string>

#include "domain_file_writer.hpp"
#include "mesh.hpp"
#include "point_colours.hpp"

namespace cfdproxy {
namespace {

namespace fs = std::filesystem;
using testing::DomainFileContents;

// Every point has one colour in [0, colours), no colour is empty, and each colour lies inside one
// original domain, the colours numbered domain by domain.
void expect_colour_properties(const Mesh& mesh) {
  ASSERT_EQ(mesh.colour.size(), static_cast<std::size_t>(mesh.points));
  std::vector<std::int32_t> domain_of(static_cast<std::size_t>(mesh.colours), -1);
  for (std::int64_t g = 0; g < mesh.points; ++g) {
    const std::int32_t c = mesh.colour[static_cast<std::size_t>(g)];
    ASSERT_GE(c, 0) << "point " << g;
    ASSERT_LT(c, mesh.colours) << "point " << g;
    std::int32_t& d = domain_of[static_cast<std::size_t>(c)];
    if (d < 0) d = mesh.domain[static_cast<std::size_t>(g)];
    EXPECT_EQ(d, mesh.domain[static_cast<std::size_t>(g)]) << "colour " << c << " spans two domains";
  }
  // A file may list a colour that holds only halo points; computed colours are never empty.
  if (mesh.colour_source == "computed") {
    for (std::int32_t c = 0; c < mesh.colours; ++c) {
      EXPECT_GE(domain_of[static_cast<std::size_t>(c)], 0) << c;
    }
  }
  std::int32_t previous = -1;
  for (std::int32_t d : domain_of) {
    if (d < 0) continue;
    EXPECT_GE(d, previous) << "colours are numbered domain by domain";
    previous = d;
  }
}

TEST(PointColours, ComputedOnGeneratedMesh) {
  const Mesh mesh = generate_mesh(5000);
  EXPECT_EQ(mesh.colour_source, "computed");
  expect_colour_properties(mesh);
  std::map<std::int32_t, int> size;
  for (std::int32_t c : mesh.colour) ++size[c];
  for (const auto& [c, points] : size) EXPECT_LE(points, computed_colour_points) << "colour " << c;
  // Deterministic: the same mesh gets the same colours.
  EXPECT_EQ(generate_mesh(5000).colour, mesh.colour);
}

TEST(PointColours, SizeIsAParameter) {
  Mesh mesh = generate_mesh(2000);
  compute_point_colours(mesh, 1);
  EXPECT_EQ(mesh.colours, mesh.points);
  compute_point_colours(mesh, 1000000);
  EXPECT_EQ(mesh.colours, mesh.domains);  // one colour per domain
  expect_colour_properties(mesh);
  EXPECT_THROW(compute_point_colours(mesh, 0), MeshError);
}

class FileColoursTest : public ::testing::Test {
 protected:
  fs::path prefix() const { return directory_.path() / "grid"; }
  void write(const std::vector<DomainFileContents>& domains) const {
    for (std::size_t d = 0; d < domains.size(); ++d)
      testing::write_domain_file(testing::domain_file(prefix(), static_cast<int>(d)), domains[d]);
  }
  // Domain 0: colours {1, halo 2} and {0}; domain 1: one colour of its three points.
  static std::vector<DomainFileContents> coloured_grid() {
    auto grid = testing::two_domain_grid();
    grid[0].colour_sizes = {2, 1};
    grid[0].colour_points = {1, 2, 0};
    grid[1].colour_sizes = {3};
    grid[1].colour_points = {2, 0, 1};
    return grid;
  }
  void expect_error(std::initializer_list<std::string> parts) const {
    try {
      read_domain_files(prefix().string());
      ADD_FAILURE() << "read_domain_files did not throw";
    } catch (const MeshError& error) {
      for (const auto& part : parts)
        EXPECT_NE(std::string(error.what()).find(part), std::string::npos) << error.what() << "\n  lacks: " << part;
    }
  }
  testing::TemporaryDirectory directory_;
};

TEST_F(FileColoursTest, ReadFromTheFiles) {
  write(coloured_grid());
  const Mesh mesh = read_domain_files(prefix().string());
  EXPECT_EQ(mesh.colour_source, "file");
  EXPECT_EQ(mesh.colours, 3);
  EXPECT_EQ(mesh.colour, (std::vector<std::int32_t>{1, 0, 2, 2}));
  expect_colour_properties(mesh);
}

TEST_F(FileColoursTest, ComputedWhenAFileHasNone) {
  auto grid = coloured_grid();
  grid[1].colour_sizes.clear();
  write(grid);
  const Mesh mesh = read_domain_files(prefix().string());
  EXPECT_EQ(mesh.colour_source, "computed");
  expect_colour_properties(mesh);
}

TEST_F(FileColoursTest, PointListedTwice) {
  auto grid = coloured_grid();
  grid[0].colour_points = {1, 1, 0};
  write(grid);
  expect_error({testing::domain_file(prefix(), 0).string(), "fcolor_points[1] is 1, listed twice"});
}

TEST_F(FileColoursTest, PointOutOfRange) {
  auto grid = coloured_grid();
  grid[1].colour_points = {2, 7, 1};
  write(grid);
  expect_error({testing::domain_file(prefix(), 1).string(), "fcolor_points[1] is 7, outside [0, nallpoints)"});
}

TEST_F(FileColoursTest, SizesDoNotAddUp) {
  auto grid = coloured_grid();
  grid[0].colour_sizes = {1, 1};
  write(grid);
  expect_error({testing::domain_file(prefix(), 0).string(), "fcolor_npoints adds up to 2, not nallpoints 3"});
  grid[0].colour_sizes = {2, 2};
  write(grid);
  expect_error({"fcolor_npoints[1] is 2; the colours' sizes must add up to nallpoints 3"});
}

TEST(PointColours, F6FilesCarryThem) {
  const fs::path data = CFDPROXY_F6_DATA;
  if (!fs::is_directory(data)) GTEST_SKIP() << "no DLR-F6 data at " << data;
  const Mesh mesh = read_domain_files(data.string());
  EXPECT_EQ(mesh.colour_source, "file");
  expect_colour_properties(mesh);
  std::vector<std::int64_t> size(static_cast<std::size_t>(mesh.colours), 0);
  for (std::int32_t c : mesh.colour) ++size[static_cast<std::size_t>(c)];
  const auto largest = *std::max_element(size.begin(), size.end());
  std::printf("F6 point colours: %d colours over %lld points, at most %lld points each\n", mesh.colours,
              static_cast<long long>(mesh.points), static_cast<long long>(largest));
}

}  // namespace
}  // namespace cfdproxy
