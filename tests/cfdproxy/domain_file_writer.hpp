// SPDX-License-Identifier: BSD-3-Clause
// Writing small domain files in the reference's layout (NetCDF 64-bit offset, the F6 files' format),
// so the reader's tests can build grids, and break them on purpose, without the F6 data.
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cfdproxy::testing {

struct DomainFileContents {
  int ndomains = 1;
  int owned = 0;                                 // nownpoints
  std::vector<int> halo_owner;                   // addpoint_owner (naddpoints = its size)
  std::vector<int> halo_index;                   // addpoint_idx
  std::vector<std::array<int, 2>> faces;         // fpoint, local ids
  std::vector<std::array<double, 3>> normals;    // fnormal
  std::vector<double> volumes;                   // pvolume, owned then halo
  std::vector<int> colour_sizes;                 // fcolor_npoints (ncolors = its size; none if empty)
  std::vector<int> colour_points;                // fcolor_points (nallpoints of them)
  std::optional<int> this_domain;                // global attribute thisdomain, if set
  std::optional<std::size_t> all_points;         // nallpoints if not owned + halo (a broken file)
  std::set<std::string> left_out;                // dimensions or variables not to write
};

// Writes `contents` to `path`; throws std::runtime_error with netcdf's message if it cannot.
void write_domain_file(const std::filesystem::path& path, const DomainFileContents& contents);

// The reference's name for domain `d` of a grid: <prefix>_domain_<d>_lvl_<level>.
std::filesystem::path domain_file(const std::filesystem::path& prefix, int d, int level = 2);

// Two domains of two owned points each, one face inside each and one between them (listed by both,
// each from its own point, so the second listing is swapped and its normal negated):
//   global points 0 1 | 2 3;  faces 0-1, 1-2, 2-3
std::vector<DomainFileContents> two_domain_grid();

// A fresh, empty directory under the system's temporary directory, removed by the destructor.
class TemporaryDirectory {
 public:
  TemporaryDirectory();
  ~TemporaryDirectory();
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace cfdproxy::testing
