// SPDX-License-Identifier: BSD-3-Clause
#include "domain_file_writer.hpp"

#include <netcdf.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <stdexcept>

namespace cfdproxy::testing {
namespace {

void check(int status, const std::filesystem::path& path, const std::string& what) {
  if (status != NC_NOERR) throw std::runtime_error(path.string() + ": " + what + ": " + nc_strerror(status));
}

}  // namespace

void write_domain_file(const std::filesystem::path& path, const DomainFileContents& contents) {
  const auto wanted = [&](const std::string& name) { return contents.left_out.count(name) == 0; };
  int file = 0;
  check(nc_create(path.c_str(), NC_CLOBBER | NC_64BIT_OFFSET, &file), path, "nc_create");

  const std::size_t halo = contents.halo_owner.size();
  const std::size_t all = contents.all_points.value_or(static_cast<std::size_t>(contents.owned) + halo);
  // A dimension of length 0 would be the record dimension; the grids here never need one.
  const std::map<std::string, std::size_t> lengths = {
      {"two", 2}, {"three", 3}, {"ndomains", contents.ndomains}, {"nfaces", contents.faces.size()},
      {"nownpoints", contents.owned}, {"naddpoints", halo}, {"nallpoints", all},
      {"ncolors", contents.colour_sizes.size()}};
  std::map<std::string, int> dimension;
  for (const auto& [name, length] : lengths) {
    if (!wanted(name) || length == 0) continue;
    check(nc_def_dim(file, name.c_str(), length, &dimension[name]), path, "dimension " + name);
  }
  const auto define = [&](const std::string& name, nc_type type, std::vector<std::string> dimensions) {
    int variable = -1;
    if (!wanted(name)) return variable;
    std::vector<int> ids;
    for (const auto& d : dimensions) {
      if (dimension.count(d) == 0) return variable;  // its dimension was left out
      ids.push_back(dimension.at(d));
    }
    check(nc_def_var(file, name.c_str(), type, static_cast<int>(ids.size()), ids.data(), &variable), path,
          "variable " + name);
    return variable;
  };
  const int fpoint = define("fpoint", NC_INT, {"nfaces", "two"});
  const int fnormal = define("fnormal", NC_DOUBLE, {"nfaces", "three"});
  const int pvolume = define("pvolume", NC_DOUBLE, {"nallpoints"});
  const int owner = halo > 0 ? define("addpoint_owner", NC_INT, {"naddpoints"}) : -1;
  const int index = halo > 0 ? define("addpoint_idx", NC_INT, {"naddpoints"}) : -1;
  const bool coloured = !contents.colour_sizes.empty();
  const int colour_sizes = coloured ? define("fcolor_npoints", NC_INT, {"ncolors"}) : -1;
  const int colour_points = coloured ? define("fcolor_points", NC_INT, {"nallpoints"}) : -1;
  if (contents.this_domain) {
    check(nc_put_att_int(file, NC_GLOBAL, "thisdomain", NC_INT, 1, &*contents.this_domain), path, "thisdomain");
  }
  check(nc_enddef(file), path, "nc_enddef");

  if (fpoint >= 0 && !contents.faces.empty()) {
    check(nc_put_var_int(file, fpoint, contents.faces.front().data()), path, "fpoint");
  }
  if (fnormal >= 0 && !contents.normals.empty()) {
    check(nc_put_var_double(file, fnormal, contents.normals.front().data()), path, "fnormal");
  }
  if (pvolume >= 0) {
    std::vector<double> volumes = contents.volumes;
    volumes.resize(all, 1.0);  // a broken nallpoints still gets a whole variable
    check(nc_put_var_double(file, pvolume, volumes.data()), path, "pvolume");
  }
  if (owner >= 0) check(nc_put_var_int(file, owner, contents.halo_owner.data()), path, "addpoint_owner");
  if (index >= 0) check(nc_put_var_int(file, index, contents.halo_index.data()), path, "addpoint_idx");
  if (colour_sizes >= 0) check(nc_put_var_int(file, colour_sizes, contents.colour_sizes.data()), path, "fcolor_npoints");
  if (colour_points >= 0) {
    std::vector<int> points = contents.colour_points;
    points.resize(all, 0);
    check(nc_put_var_int(file, colour_points, points.data()), path, "fcolor_points");
  }
  check(nc_close(file), path, "nc_close");
}

std::filesystem::path domain_file(const std::filesystem::path& prefix, int d, int level) {
  return prefix.string() + "_domain_" + std::to_string(d) + "_lvl_" + std::to_string(level);
}

std::vector<DomainFileContents> two_domain_grid() {
  DomainFileContents first;
  first.ndomains = 2;
  first.owned = 2;
  first.halo_owner = {1};  // local 2 = global 2 (domain 1's point 0)
  first.halo_index = {0};
  first.faces = {{0, 1}, {1, 2}};
  first.normals = {{1.0, 0.0, 0.0}, {0.5, 0.25, -2.0}};
  first.volumes = {1.0, 2.0, 3.0};
  first.this_domain = 0;

  DomainFileContents second;
  second.ndomains = 2;
  second.owned = 2;
  second.halo_owner = {0};  // local 2 = global 1 (domain 0's point 1)
  second.halo_index = {1};
  second.faces = {{0, 1}, {0, 2}};  // 2-3, then 2-1: the shared face the other way round
  second.normals = {{0.0, 1.0, 0.0}, {-0.5, -0.25, 2.0}};
  second.volumes = {3.0, 4.0, 2.0};
  second.this_domain = 1;
  return {first, second};
}

TemporaryDirectory::TemporaryDirectory() {
  static std::atomic<int> counter{0};
  path_ = std::filesystem::temp_directory_path() /
          ("cfdproxy_mesh_tests." + std::to_string(::getpid()) + "." + std::to_string(counter++));
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TemporaryDirectory::~TemporaryDirectory() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace cfdproxy::testing
