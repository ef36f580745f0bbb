// SPDX-License-Identifier: BSD-3-Clause
// CFD-Proxy's domain-file reader (read_domain_files: NetCDF files, their dimensions and the
// consistency checks between domains). The fuzzer's bytes drive a generator that writes a small set
// of domain files with libnetcdf into a tmpfs directory: random counts, indices out of range,
// dimensions or variables left out, disagreeing copies of volumes and normals. The reader must
// either return a mesh whose every face and point is in range or throw MeshError; anything else is
// a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "domain_file_writer.hpp"
#include "fuzz_input.hpp"
#include "mesh.hpp"

namespace {

namespace fs = std::filesystem;
using cfdproxy::testing::DomainFileContents;

// tmpfs, so the thousands of small files a run writes never touch a disk.
fs::path work_directory() {
  static const fs::path directory = [] {
    const fs::path base = fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
    fs::path path = base / ("gw-fuzz-cfd-mesh." + std::to_string(::getpid()));
    fs::create_directories(path);
    return path;
  }();
  return directory;
}

// Small numbers, so copies written twice often agree and the reader gets past its first checks.
double small_value(gwfuzz::ByteReader& in) {
  const std::uint8_t b = in.byte();
  if (b == 255) return in.any_double();
  return (static_cast<int>(b % 16) - 4) * 0.5;
}

const char* const optional_parts[] = {"ndomains", "nfaces", "nownpoints", "naddpoints", "nallpoints",
                                      "fpoint",   "fnormal", "pvolume",   "addpoint_owner", "addpoint_idx"};

DomainFileContents generate_domain(gwfuzz::ByteReader& in, int d, int ndomains) {
  DomainFileContents contents;
  contents.ndomains = in.chance(5) ? in.in_range(0, 4) : ndomains;
  contents.owned = in.in_range(0, 5);
  const int halo = in.in_range(0, 3);
  for (int j = 0; j < halo; ++j) {
    contents.halo_owner.push_back(in.in_range(-1, ndomains));
    contents.halo_index.push_back(in.in_range(-1, 5));
  }
  const int all = contents.owned + halo;
  const int faces = in.in_range(0, 6);
  for (int f = 0; f < faces; ++f) {
    contents.faces.push_back({in.in_range(-1, all), in.in_range(-1, all)});
    contents.normals.push_back({small_value(in), small_value(in), small_value(in)});
  }
  for (int p = 0; p < all; ++p) contents.volumes.push_back(small_value(in));
  switch (in.byte() % 4) {
    case 0: break;  // no thisdomain attribute
    case 1: contents.this_domain = in.in_range(-1, 3); break;
    default: contents.this_domain = d;
  }
  if (in.chance(5)) contents.all_points = static_cast<std::size_t>(in.in_range(0, 9));
  if (in.chance(10)) {
    const std::uint8_t mask_low = in.byte(), mask_high = in.byte();
    const unsigned mask = mask_low | (static_cast<unsigned>(mask_high) << 8);
    for (unsigned k = 0; k < std::size(optional_parts); ++k)
      if (mask & (1u << k)) contents.left_out.insert(optional_parts[k]);
  }
  return contents;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  gwfuzz::ByteReader in(data, size);
  const fs::path directory = work_directory();
  for (const auto& entry : fs::directory_iterator(directory)) fs::remove(entry.path());
  const fs::path prefix = directory / "grid";
  const int ndomains = in.in_range(1, 3);
  for (int d = 0; d < ndomains; ++d) {
    cfdproxy::testing::write_domain_file(cfdproxy::testing::domain_file(prefix, d, 1),
                                         generate_domain(in, d, ndomains));
  }
  try {
    const cfdproxy::Mesh mesh = cfdproxy::read_domain_files(prefix.string());
    // What the partitioner and the kernels rely on.
    if (mesh.normals.size() != mesh.faces.size()) __builtin_trap();
    if (mesh.volumes.size() != static_cast<std::size_t>(mesh.points)) __builtin_trap();
    for (const auto& face : mesh.faces)
      if (face[0] < 0 || face[1] < 0 || face[0] >= mesh.points || face[1] >= mesh.points || face[0] == face[1])
        __builtin_trap();
  } catch (const cfdproxy::MeshError&) {
  }
  return 0;
}
