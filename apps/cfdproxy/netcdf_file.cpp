// SPDX-License-Identifier: BSD-3-Clause
// NetcdfFile (netcdf_file.hpp): libnetcdf's C API, with every failure a MeshError naming the file
// and what was read (see docs/cfdproxy.md, "Reading the reference's domain files").
#include "netcdf_file.hpp"

#include <netcdf.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "mesh.hpp"

namespace cfdproxy {
namespace {

// Reads the big-endian fields of a classic-format header (the NetCDF classic format specification:
// magic, numrecs, dim_list, gatt_list, var_list) just far enough to know where each variable's data
// ends. Only called after nc_open accepted the file, so a malformed header is not expected here.
class ClassicHeader {
 public:
  explicit ClassicHeader(const std::string& path) : in_(path, std::ios::binary) {}

  // The byte offset where the last variable's data ends, or nothing if the header cannot be read.
  std::optional<std::uint64_t> data_end() {
    char magic[4];
    if (!in_.read(magic, 4) || magic[0] != 'C' || magic[1] != 'D' || magic[2] != 'F') return std::nullopt;
    const int version = magic[3];
    if (version != 1 && version != 2 && version != 5) return std::nullopt;
    wide_counts_ = version == 5;
    wide_offsets_ = version != 1;
    const std::uint64_t records = count();

    std::vector<std::uint64_t> dimension_lengths;  // 0: the record (unlimited) dimension
    const std::uint64_t dimensions = list(nc_dimension_tag);
    for (std::uint64_t d = 0; d < dimensions && in_; ++d) {
      skip_name();
      dimension_lengths.push_back(count());
    }
    skip_attributes();

    std::uint64_t fixed_end = 0;
    std::uint64_t first_record_begin = UINT64_MAX;
    std::uint64_t record_bytes = 0;  // one record of every record variable
    int record_variables = 0;
    const std::uint64_t variables = list(nc_variable_tag);
    for (std::uint64_t v = 0; v < variables && in_; ++v) {
      skip_name();
      const std::uint64_t rank = count();
      std::uint64_t elements = 1;
      bool is_record = false;
      for (std::uint64_t k = 0; k < rank && in_; ++k) {
        const std::uint64_t id = count();
        if (id >= dimension_lengths.size()) return std::nullopt;
        if (dimension_lengths[id] == 0 && k == 0) is_record = true;
        else elements *= dimension_lengths[id];
      }
      skip_attributes();
      const std::uint64_t bytes = elements * type_size(static_cast<int>(word(4)));
      count();  // vsize: recomputed above, the header's value saturates for huge variables
      const std::uint64_t begin = word(wide_offsets_ ? 8 : 4);
      if (is_record) {
        first_record_begin = std::min(first_record_begin, begin);
        record_bytes += bytes;
        ++record_variables;
      } else {
        fixed_end = std::max(fixed_end, begin + bytes);  // the last padding bytes need not be there
      }
    }
    if (!in_) return std::nullopt;
    if (record_variables == 0 || records == streaming_records) return fixed_end;
    // Records are padded to 4 bytes unless there is a single record variable.
    if (record_variables > 1) record_bytes = (record_bytes + 3) / 4 * 4;
    return std::max(fixed_end, first_record_begin + records * record_bytes);
  }

 private:
  static constexpr std::uint64_t nc_dimension_tag = 0x0A;
  static constexpr std::uint64_t nc_variable_tag = 0x0B;
  static constexpr std::uint64_t nc_attribute_tag = 0x0C;
  static constexpr std::uint64_t streaming_records = 0xFFFFFFFF;

  std::uint64_t word(int bytes) {
    unsigned char raw[8] = {};
    in_.read(reinterpret_cast<char*>(raw), bytes);
    std::uint64_t value = 0;
    for (int k = 0; k < bytes; ++k) value = value << 8 | raw[k];
    return value;
  }
  std::uint64_t count() { return word(wide_counts_ ? 8 : 4); }
  // A list's element count; an absent list (tag and count zero) has none.
  std::uint64_t list(std::uint64_t tag) {
    const std::uint64_t found = word(4);
    const std::uint64_t elements = count();
    if (found != tag && found != 0) in_.setstate(std::ios::failbit);
    return elements;
  }
  void skip_padded(std::uint64_t bytes) { in_.seekg(static_cast<std::streamoff>((bytes + 3) / 4 * 4), std::ios::cur); }
  void skip_name() { skip_padded(count()); }
  void skip_attributes() {
    const std::uint64_t attributes = list(nc_attribute_tag);
    for (std::uint64_t a = 0; a < attributes && in_; ++a) {
      skip_name();
      const int type = static_cast<int>(word(4));
      skip_padded(count() * type_size(type));
    }
  }
  std::uint64_t type_size(int type) {
    switch (type) {
      case NC_BYTE: case NC_CHAR: case NC_UBYTE: return 1;
      case NC_SHORT: case NC_USHORT: return 2;
      case NC_INT: case NC_FLOAT: case NC_UINT: return 4;
      case NC_DOUBLE: case NC_INT64: case NC_UINT64: return 8;
      default: in_.setstate(std::ios::failbit); return 0;
    }
  }

  std::ifstream in_;
  bool wide_counts_ = false;
  bool wide_offsets_ = false;
};

std::string shape_text(const std::vector<std::size_t>& lengths) {
  std::ostringstream text;
  text << "(";
  for (std::size_t k = 0; k < lengths.size(); ++k) text << (k ? ", " : "") << lengths[k];
  text << ")";
  return text.str();
}

std::string shape_text(std::initializer_list<NetcdfFile::Extent> shape) {
  std::ostringstream text;
  text << "(";
  bool first = true;
  for (const auto& extent : shape) {
    text << (first ? "" : ", ");
    if (extent.meaning != nullptr) text << extent.meaning << " ";
    text << extent.length;
    first = false;
  }
  text << ")";
  return text.str();
}

}  // namespace

NetcdfFile::NetcdfFile(const std::string& path) : path_(path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw MeshError(path + ": missing file");
  if (std::filesystem::is_directory(path, error)) throw MeshError(path + ": a directory, expected a NetCDF file");
  if (const int status = nc_open(path.c_str(), NC_NOWRITE, &id_); status != NC_NOERR) {
    id_ = -1;
    throw MeshError(path + ": cannot open as NetCDF: " + nc_strerror(status));
  }
  int format = 0;
  nc_inq_format(id_, &format);
  if (format == NC_FORMAT_CLASSIC || format == NC_FORMAT_64BIT_OFFSET || format == NC_FORMAT_CDF5) {
    const std::uint64_t size = std::filesystem::file_size(path, error);
    const auto end = ClassicHeader(path).data_end();
    if (error || !end || size < *end) {
      nc_close(id_);
      id_ = -1;
      std::string what = !end ? "its header cannot be read" : "it has " + std::to_string(size) +
                                                                    " bytes but its variables end at byte " +
                                                                    std::to_string(*end);
      throw MeshError(path + ": truncated NetCDF file (" + what + "): " + nc_strerror(NC_ETRUNC));
    }
  }
}

NetcdfFile::~NetcdfFile() {
  if (id_ >= 0) nc_close(id_);
}

void NetcdfFile::fail(const std::string& what, int status) const {
  throw MeshError(path_ + ": " + what + ": " + nc_strerror(status));
}

bool NetcdfFile::has_dimension(const std::string& name) const {
  int dimension_id = 0;
  return nc_inq_dimid(id_, name.c_str(), &dimension_id) == NC_NOERR;
}

std::size_t NetcdfFile::dimension(const std::string& name) const {
  int dimension_id = 0;
  if (nc_inq_dimid(id_, name.c_str(), &dimension_id) != NC_NOERR) {
    throw MeshError(path_ + ": missing dimension '" + name + "'");
  }
  std::size_t length = 0;
  if (const int status = nc_inq_dimlen(id_, dimension_id, &length); status != NC_NOERR) {
    fail("dimension '" + name + "'", status);
  }
  return length;
}

bool NetcdfFile::has_variable(const std::string& name) const {
  int variable = 0;
  return nc_inq_varid(id_, name.c_str(), &variable) == NC_NOERR;
}

std::optional<long long> NetcdfFile::integer_attribute(const std::string& name) const {
  nc_type type = NC_NAT;
  std::size_t length = 0;
  if (nc_inq_att(id_, NC_GLOBAL, name.c_str(), &type, &length) != NC_NOERR) return std::nullopt;
  if (length != 1) throw MeshError(path_ + ": attribute '" + name + "' has " + std::to_string(length) +
                                   " values; expected one integer");
  long long value = 0;
  if (const int status = nc_get_att_longlong(id_, NC_GLOBAL, name.c_str(), &value); status != NC_NOERR) {
    fail("attribute '" + name + "'", status);
  }
  return value;
}

int NetcdfFile::variable_id(const std::string& name, std::initializer_list<Extent> shape) const {
  int variable = 0;
  if (nc_inq_varid(id_, name.c_str(), &variable) != NC_NOERR) {
    throw MeshError(path_ + ": missing variable '" + name + "'");
  }
  int rank = 0;
  if (const int status = nc_inq_varndims(id_, variable, &rank); status != NC_NOERR) {
    fail("variable '" + name + "'", status);
  }
  std::vector<int> dimension_ids(static_cast<std::size_t>(rank));
  nc_inq_vardimid(id_, variable, dimension_ids.data());
  std::vector<std::size_t> lengths;
  for (int dimension_id : dimension_ids) {
    std::size_t length = 0;
    nc_inq_dimlen(id_, dimension_id, &length);
    lengths.push_back(length);
  }
  bool matches = lengths.size() == shape.size();
  std::size_t k = 0;
  for (const auto& extent : shape) matches = matches && lengths[k++] == extent.length;
  if (!matches) {
    throw MeshError(path_ + ": variable '" + name + "' has shape " + shape_text(lengths) + "; expected " +
                    shape_text(shape));
  }
  return variable;
}

std::vector<int> NetcdfFile::read_ints(const std::string& name, std::initializer_list<Extent> shape) const {
  const int variable = variable_id(name, shape);
  std::size_t elements = 1;
  for (const auto& extent : shape) elements *= extent.length;
  std::vector<int> values(elements);
  if (elements == 0) return values;
  if (const int status = nc_get_var_int(id_, variable, values.data()); status != NC_NOERR) {
    fail("reading variable '" + name + "'", status);
  }
  return values;
}

std::vector<double> NetcdfFile::read_doubles(const std::string& name, std::initializer_list<Extent> shape) const {
  const int variable = variable_id(name, shape);
  std::size_t elements = 1;
  for (const auto& extent : shape) elements *= extent.length;
  std::vector<double> values(elements);
  if (elements == 0) return values;
  if (const int status = nc_get_var_double(id_, variable, values.data()); status != NC_NOERR) {
    fail("reading variable '" + name + "'", status);
  }
  return values;
}

}  // namespace cfdproxy
