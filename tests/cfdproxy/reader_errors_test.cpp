// SPDX-License-Identifier: BSD-3-Clause
// read_domain_files on small grids written here: what a correct two-domain grid reassembles into,
// how a grid is named (prefix, file, directory, level), and one broken grid per error the reader
// must report, each checked for the message's file and reason.
#include <gtest/gtest.h>
#include <netcdf.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>

#include "domain_file_writer.hpp"
#include "mesh.hpp"

namespace cfdproxy {
namespace {

namespace fs = std::filesystem;
using testing::DomainFileContents;
using testing::domain_file;
using testing::two_domain_grid;

class ReaderTest : public ::testing::Test {
 protected:
  fs::path prefix() const { return directory_.path() / "grid"; }
  fs::path file(int d, int level = 2) const { return domain_file(prefix(), d, level); }

  void write(const std::vector<DomainFileContents>& domains, int level = 2) const {
    for (std::size_t d = 0; d < domains.size(); ++d) {
      testing::write_domain_file(file(static_cast<int>(d), level), domains[d]);
    }
  }

  // read_domain_files(path) must throw a MeshError whose message holds every one of `parts`.
  static void expect_error(const std::string& path, std::initializer_list<std::string> parts) {
    try {
      read_domain_files(path);
      ADD_FAILURE() << "read_domain_files(" << path << ") did not throw";
    } catch (const MeshError& error) {
      const std::string message = error.what();
      for (const auto& part : parts) {
        EXPECT_NE(message.find(part), std::string::npos) << message << "\n  lacks: " << part;
      }
    }
  }

  testing::TemporaryDirectory directory_;
};

TEST_F(ReaderTest, ReassemblesTwoDomains) {
  write(two_domain_grid());
  ReassemblyStats stats;
  const Mesh mesh = read_domain_files(prefix().string(), stats);
  EXPECT_EQ(mesh.points, 4);
  EXPECT_EQ(mesh.domains, 2);
  // First appearance, domain by domain: 0-1 and 1-2 from domain 0, 2-3 from domain 1.
  const std::vector<std::array<std::int64_t, 2>> faces = {{0, 1}, {1, 2}, {2, 3}};
  EXPECT_EQ(mesh.faces, faces);
  const std::vector<std::array<double, 3>> normals = {{1.0, 0.0, 0.0}, {0.5, 0.25, -2.0}, {0.0, 1.0, 0.0}};
  EXPECT_EQ(mesh.normals, normals);
  EXPECT_EQ(mesh.volumes, (std::vector<double>{1.0, 2.0, 3.0, 4.0}));
  EXPECT_EQ(mesh.domain, (std::vector<std::int32_t>{0, 0, 1, 1}));
  EXPECT_EQ(stats.face_entries, 4);
  EXPECT_EQ(stats.merged_duplicates, 1);
  EXPECT_EQ(stats.swapped_duplicates, 1);
  EXPECT_EQ(stats.max_normal_mismatch, 0.0);
  EXPECT_NE(mesh.description.find("2 domains, 4 points, 3 faces"), std::string::npos) << mesh.description;
}

TEST_F(ReaderTest, KeepsTheFirstListingsOrientation) {
  // Domain 1 lists the shared face first in its own direction; domain 0's listing (read first) wins.
  auto grid = two_domain_grid();
  std::swap(grid[1].faces[0], grid[1].faces[1]);
  std::swap(grid[1].normals[0], grid[1].normals[1]);
  write(grid);
  const Mesh mesh = read_domain_files(prefix().string());
  ASSERT_EQ(mesh.faces.size(), 3u);
  EXPECT_EQ(mesh.faces[1], (std::array<std::int64_t, 2>{1, 2}));
  EXPECT_EQ(mesh.normals[1], (std::array<double, 3>{0.5, 0.25, -2.0}));
  EXPECT_EQ(mesh.faces[2], (std::array<std::int64_t, 2>{2, 3}));
}

TEST_F(ReaderTest, NamesTheGridByPrefixFileOrDirectory) {
  write(two_domain_grid(), 3);
  for (const std::string& path : {prefix().string(), file(1, 3).string(), directory_.path().string()}) {
    const Mesh mesh = read_domain_files(path);
    EXPECT_EQ(mesh.points, 4) << path;
    EXPECT_NE(mesh.description.find("_lvl_3"), std::string::npos) << path << ": " << mesh.description;
  }
}

TEST_F(ReaderTest, SeveralLevelsMustBeChosen) {
  write(two_domain_grid(), 1);
  write(two_domain_grid(), 3);
  expect_error(prefix().string(), {prefix().string(), "levels 1, 3", "name one of them"});
  expect_error(directory_.path().string(), {"several grids", "grid level 1, grid level 3"});
  EXPECT_EQ(read_domain_files(file(0, 3).string()).points, 4);
}

TEST_F(ReaderTest, MissingGrid) {
  expect_error(prefix().string(), {prefix().string() + "_domain_0_lvl_<L>", "missing file", "1..4"});
  expect_error(directory_.path().string(), {directory_.path().string(), "no domain files"});
}

TEST_F(ReaderTest, MissingDomainFile) {
  write({two_domain_grid()[0]});
  expect_error(prefix().string(), {file(1).string(), "missing file"});
}

TEST_F(ReaderTest, NotNetcdf) {
  write(two_domain_grid());
  std::ofstream(file(1)) << "fpoint fnormal pvolume\n";
  expect_error(prefix().string(), {file(1).string(), "cannot open as NetCDF", nc_strerror(NC_ENOTNC)});
}

TEST_F(ReaderTest, TruncatedData) {
  write(two_domain_grid());
  // The header stays whole, the last variables lose their data: netcdf itself would read zeros.
  fs::resize_file(file(1), fs::file_size(file(1)) - 8);
  expect_error(prefix().string(), {file(1).string(), "truncated", nc_strerror(NC_ETRUNC)});
}

TEST_F(ReaderTest, TruncatedHeader) {
  // netcdf opens this one (40 bytes of the header); the reader cannot find where its data ends.
  write(two_domain_grid());
  fs::resize_file(file(0), 40);
  expect_error(prefix().string(), {file(0).string(), "truncated NetCDF file (its header cannot be read)",
                                   nc_strerror(NC_ETRUNC)});
  fs::resize_file(file(0), 3);
  expect_error(prefix().string(), {file(0).string(), "cannot open as NetCDF"});
}

TEST_F(ReaderTest, TruncatedF6File) {
  const fs::path original = fs::path(CFDPROXY_F6_DATA) / "dualgrid_domain_0_lvl_2";
  if (!fs::exists(original)) GTEST_SKIP() << "no DLR-F6 data at " << original;
  fs::copy_file(original, file(0));
  fs::resize_file(file(0), fs::file_size(original) / 2);
  expect_error(prefix().string(), {file(0).string(), "truncated", "bytes but its variables end at byte"});
}

TEST_F(ReaderTest, MissingVariable) {
  auto grid = two_domain_grid();
  grid[1].left_out = {"addpoint_idx"};
  write(grid);
  expect_error(prefix().string(), {file(1).string(), "missing variable 'addpoint_idx'"});
}

TEST_F(ReaderTest, MissingDimension) {
  auto grid = two_domain_grid();
  grid[1].left_out = {"nfaces"};
  write(grid);
  expect_error(prefix().string(), {file(1).string(), "missing dimension 'nfaces'"});
}

TEST_F(ReaderTest, NdomainsDisagree) {
  auto grid = two_domain_grid();
  grid[1].ndomains = 3;
  write(grid);
  expect_error(prefix().string(), {file(1).string(), "ndomains 3", file(0).string() + " says 2"});
}

TEST_F(ReaderTest, ThisdomainDisagrees) {
  auto grid = two_domain_grid();
  grid[1].this_domain = 0;
  write(grid);
  expect_error(prefix().string(), {file(1).string(), "thisdomain says 0", "domain 1"});
}

TEST_F(ReaderTest, NallpointsIsNotOwnedPlusHalo) {
  auto grid = two_domain_grid();
  grid[0].all_points = 4;
  write(grid);
  expect_error(prefix().string(), {file(0).string(), "nallpoints 4 is not nownpoints 2 + naddpoints 1"});
}

TEST_F(ReaderTest, HaloOwnerOutOfRange) {
  for (const int owner : {2, -1}) {
    auto grid = two_domain_grid();
    grid[1].halo_owner = {owner};
    write(grid);
    expect_error(prefix().string(), {file(1).string(), "addpoint_owner[0] is " + std::to_string(owner),
                                     "outside [0, ndomains 2)"});
  }
}

TEST_F(ReaderTest, HaloIndexOutOfRange) {
  for (const int index : {2, -1}) {
    auto grid = two_domain_grid();
    grid[1].halo_index = {index};
    write(grid);
    expect_error(prefix().string(), {file(1).string(), "addpoint_idx[0] is " + std::to_string(index),
                                     "outside [0, 2)", "owner domain 0"});
  }
}

TEST_F(ReaderTest, FacePointOutOfRange) {
  auto grid = two_domain_grid();
  grid[0].faces[1] = {1, 3};
  write(grid);
  expect_error(prefix().string(), {file(0).string(), "face 1 has fpoint 3 outside [0, nallpoints 3)"});
}

TEST_F(ReaderTest, FaceJoinsAPointToItself) {
  auto grid = two_domain_grid();
  grid[0].faces[0] = {1, 1};
  write(grid);
  expect_error(prefix().string(), {file(0).string(), "face 0 joins a point to itself"});
}

TEST_F(ReaderTest, HaloCopyOfTheFilesOwnPointMakesASelfFace) {
  // Domain 1's halo point names domain 1's own point 0, so its face 0-2 is global 2-2.
  auto grid = two_domain_grid();
  grid[1].halo_owner = {1};
  grid[1].halo_index = {0};
  grid[1].volumes[2] = 3.0;
  write(grid);
  expect_error(prefix().string(), {file(1).string(), "face 1 joins a point to itself", "global point 2"});
}

TEST_F(ReaderTest, PointOnNoFace) {
  auto grid = two_domain_grid();
  grid[1].owned = 3;  // owned point 2 (global 4) has no face; the halo point moves to local 3
  grid[1].faces = {{0, 1}, {0, 3}};
  grid[1].volumes = {3.0, 4.0, 5.0, 2.0};
  write(grid);
  expect_error(prefix().string(), {file(1).string(), "owned point 2 (global point 4) is on no face"});
}

TEST_F(ReaderTest, NormalsDisagree) {
  auto grid = two_domain_grid();
  grid[1].normals[1][2] = 2.001;
  write(grid);
  expect_error(prefix().string(), {"domains 0 and 1 disagree", "global points 1 and 2", file(0).string(),
                                   file(1).string(), "face 1 of domain 0", "face 1 of domain 1",
                                   "the other way round"});
}

TEST_F(ReaderTest, HaloVolumeDisagrees) {
  auto grid = two_domain_grid();
  grid[1].volumes[2] = 2.5;
  write(grid);
  expect_error(prefix().string(), {file(1).string(), "pvolume of halo point 2", "2.5", "domain 0, has 2"});
}

TEST_F(ReaderTest, FaceListedTwiceInOneFile) {
  auto grid = two_domain_grid();
  grid[0].faces.push_back({1, 0});
  grid[0].normals.push_back({-1.0, 0.0, 0.0});
  write(grid);
  expect_error(prefix().string(), {file(0).string(), "faces 0 and 2 are the same face"});
}

TEST(LoadMesh, GeneratedOrPath) {
  EXPECT_EQ(load_mesh("generated:1000").points, 1000);
  EXPECT_EQ(load_mesh("generated:1000").domains, 48);
  for (const std::string spec : {"generated:", "generated:abc", "generated:-5", "generated:10x", "generated:0"}) {
    try {
      load_mesh(spec);
      ADD_FAILURE() << spec << " did not throw";
    } catch (const MeshError& error) {
      EXPECT_NE(std::string(error.what()).find("mesh '" + spec + "': expected generated:N"), std::string::npos)
          << error.what();
    }
  }
  EXPECT_THROW(load_mesh("/nonexistent/grid"), MeshError);
}

}  // namespace
}  // namespace cfdproxy
