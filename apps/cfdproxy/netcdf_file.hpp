// SPDX-License-Identifier: BSD-3-Clause
// NetcdfFile: one NetCDF file open for reading through the C API (libnetcdf), with every failure a
// MeshError that names the file, the dimension or variable, and netcdf's own words (nc_strerror).
//
// Opening also checks that a classic-format file (CDF-1, CDF-2 or CDF-5: the reference's files are
// CDF-2) is as long as its header says: netcdf reads the missing tail of a truncated file as
// zeros without any error, which would turn into a wrong mesh instead of a message.
//
// See docs/cfdproxy.md, "Reading the reference's domain files".
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace cfdproxy {

class NetcdfFile {
 public:
  // One axis of a variable's expected shape: its length and, for messages, the dimension that gave
  // it (nullptr for a fixed length such as the 2 points of a face).
  struct Extent {
    std::size_t length;
    const char* meaning = nullptr;  // e.g. "nfaces"
  };

  explicit NetcdfFile(const std::string& path);
  ~NetcdfFile();
  NetcdfFile(const NetcdfFile&) = delete;
  NetcdfFile& operator=(const NetcdfFile&) = delete;

  const std::string& path() const { return path_; }
  bool has_dimension(const std::string& name) const;
  std::size_t dimension(const std::string& name) const;  // throws MeshError if there is none
  bool has_variable(const std::string& name) const;
  // A global integer attribute, or nothing if the file has none of that name.
  std::optional<long long> integer_attribute(const std::string& name) const;
  // The whole variable, converted by netcdf; its shape must be `shape` exactly.
  std::vector<int> read_ints(const std::string& name, std::initializer_list<Extent> shape) const;
  std::vector<double> read_doubles(const std::string& name, std::initializer_list<Extent> shape) const;

 private:
  int variable_id(const std::string& name, std::initializer_list<Extent> shape) const;
  [[noreturn]] void fail(const std::string& what, int status) const;

  std::string path_;
  int id_ = -1;
};

}  // namespace cfdproxy
