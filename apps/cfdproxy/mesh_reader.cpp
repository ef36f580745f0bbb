// SPDX-License-Identifier: BSD-3-Clause
// read_domain_files: the reference's pre-partitioned dual grid (one NetCDF file per domain, local
// numbering, halo points named by owner domain and index there) reassembled into one global mesh.
//
// A face between two domains is listed by both files, each time from its own point to the halo
// point, so the second listing has the points swapped and the normal negated. Such duplicates are
// found by sorting all listings by their unordered global point pair (no quadratic search: 1.6
// million listings for the F6 grid), the first listing in file order is kept, and every other one
// must carry the same normal up to orientation; a halo copy of a point must carry its owner's
// volume. Anything else means the files do not describe one mesh, and the reader says where.
//
// See docs/cfdproxy.md, "Reading the reference's domain files".
#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "domain_files.hpp"
#include "mesh.hpp"
#include "netcdf_file.hpp"
#include "point_colours.hpp"

namespace cfdproxy {
namespace {

// Copies of one quantity in two files are the same number written twice, so they agree to rounding
// of the file's arithmetic at most (the F6 files: exactly).
constexpr double copy_tolerance = 1e-12;

// One domain file's contents in its local numbering: owned points [0, owned), halo points
// [owned, owned + halo).
struct Domain {
  std::string file;
  std::int64_t owned = 0;
  std::int64_t halo = 0;
  std::vector<int> face_points;      // (nfaces, 2)
  std::vector<double> face_normals;  // (nfaces, 3)
  std::vector<double> volumes;       // (owned + halo)
  std::vector<int> halo_owner;       // (halo): owning domain
  std::vector<int> halo_index;       // (halo): index among the owner's owned points
  std::vector<int> colour_sizes;     // (ncolors): fcolor_npoints, empty if the file has none
  std::vector<int> colour_points;    // (owned + halo): fcolor_points, the points colour by colour
  std::int64_t faces() const { return static_cast<std::int64_t>(face_points.size() / 2); }
};

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string point_text(std::int64_t local, const Domain& domain) {
  return local < domain.owned ? "owned point " + std::to_string(local)
                              : "halo point " + std::to_string(local) + " (addpoint " +
                                    std::to_string(local - domain.owned) + ")";
}

// Reads domain `d`; `domains` is domain 0's ndomains (for d = 0: set from this file).
Domain read_domain(const DomainFiles& files, int d, int& domains) {
  NetcdfFile file(files.file(d));
  Domain domain;
  domain.file = file.path();
  const std::size_t ndomains = file.dimension("ndomains");
  if (d == 0) {
    if (ndomains < 1 || ndomains > 1000000) {
      throw MeshError(file.path() + ": ndomains " + std::to_string(ndomains) + "; expected 1 to 1000000");
    }
    domains = static_cast<int>(ndomains);
  } else if (ndomains != static_cast<std::size_t>(domains)) {
    throw MeshError(file.path() + ": ndomains " + std::to_string(ndomains) + " but " + files.file(0) + " says " +
                    std::to_string(domains) + "; all domain files must agree");
  }
  if (const auto self = file.integer_attribute("thisdomain"); self && *self != d) {
    throw MeshError(file.path() + ": its attribute thisdomain says " + std::to_string(*self) +
                    ", but its name says domain " + std::to_string(d));
  }

  const std::size_t owned = file.dimension("nownpoints");
  // A single-domain grid has no halo; the reference does not read the halo variables then.
  const bool has_halo = domains > 1 || file.has_dimension("naddpoints");
  const std::size_t halo = has_halo ? file.dimension("naddpoints") : 0;
  const std::size_t all = file.dimension("nallpoints");
  if (all != owned + halo) {
    throw MeshError(file.path() + ": nallpoints " + std::to_string(all) + " is not nownpoints " +
                    std::to_string(owned) + " + naddpoints " + std::to_string(halo));
  }
  const std::size_t faces = file.dimension("nfaces");
  domain.owned = static_cast<std::int64_t>(owned);
  domain.halo = static_cast<std::int64_t>(halo);
  domain.face_points = file.read_ints("fpoint", {{faces, "nfaces"}, {2}});
  domain.face_normals = file.read_doubles("fnormal", {{faces, "nfaces"}, {3}});
  domain.volumes = file.read_doubles("pvolume", {{all, "nallpoints"}});
  if (halo > 0) {
    domain.halo_owner = file.read_ints("addpoint_owner", {{halo, "naddpoints"}});
    domain.halo_index = file.read_ints("addpoint_idx", {{halo, "naddpoints"}});
  }
  // The point colours for threads (point_colours.hpp); optional: without them they are computed.
  if (file.has_dimension("ncolors") && file.has_variable("fcolor_npoints") && file.has_variable("fcolor_points")) {
    domain.colour_sizes = file.read_ints("fcolor_npoints", {{file.dimension("ncolors"), "ncolors"}});
    domain.colour_points = file.read_ints("fcolor_points", {{all, "nallpoints"}});
  }

  for (std::size_t k = 0; k < domain.face_points.size(); ++k) {
    const int point = domain.face_points[k];
    if (point < 0 || static_cast<std::size_t>(point) >= all) {
      throw MeshError(file.path() + ": face " + std::to_string(k / 2) + " has fpoint " + std::to_string(point) +
                      " outside [0, nallpoints " + std::to_string(all) + ")");
    }
  }
  for (std::size_t j = 0; j < halo; ++j) {
    const int owner = domain.halo_owner[j];
    if (owner < 0 || owner >= domains) {
      throw MeshError(file.path() + ": addpoint_owner[" + std::to_string(j) + "] is " + std::to_string(owner) +
                      ", outside [0, ndomains " + std::to_string(domains) + ")");
    }
  }
  return domain;
}

// Global ids of every local point of every domain.
std::vector<std::vector<std::int64_t>> global_ids(const std::vector<Domain>& domains,
                                                  const std::vector<std::int64_t>& offsets) {
  std::vector<std::vector<std::int64_t>> ids(domains.size());
  for (std::size_t d = 0; d < domains.size(); ++d) {
    const Domain& domain = domains[d];
    auto& local = ids[d];
    local.resize(static_cast<std::size_t>(domain.owned + domain.halo));
    for (std::int64_t i = 0; i < domain.owned; ++i) local[static_cast<std::size_t>(i)] = offsets[d] + i;
    for (std::int64_t j = 0; j < domain.halo; ++j) {
      const int owner = domain.halo_owner[static_cast<std::size_t>(j)];
      const int index = domain.halo_index[static_cast<std::size_t>(j)];
      const std::int64_t owner_points = domains[static_cast<std::size_t>(owner)].owned;
      if (index < 0 || index >= owner_points) {
        throw MeshError(domain.file + ": addpoint_idx[" + std::to_string(j) + "] is " + std::to_string(index) +
                        ", outside [0, " + std::to_string(owner_points) + "), the owned points of its owner domain " +
                        std::to_string(owner) + " (addpoint_owner)");
      }
      local[static_cast<std::size_t>(domain.owned + j)] = offsets[static_cast<std::size_t>(owner)] + index;
    }
  }
  return ids;
}

// Owned volumes, and the check that every halo copy carries its owner's.
void gather_volumes(const std::vector<Domain>& domains, const std::vector<std::vector<std::int64_t>>& ids,
                    Mesh& mesh, ReassemblyStats& stats) {
  mesh.volumes.resize(static_cast<std::size_t>(mesh.points));
  mesh.domain.resize(static_cast<std::size_t>(mesh.points));
  for (std::size_t d = 0; d < domains.size(); ++d) {
    for (std::int64_t i = 0; i < domains[d].owned; ++i) {
      const auto global = static_cast<std::size_t>(ids[d][static_cast<std::size_t>(i)]);
      mesh.volumes[global] = domains[d].volumes[static_cast<std::size_t>(i)];
      mesh.domain[global] = static_cast<std::int32_t>(d);
    }
  }
  for (std::size_t d = 0; d < domains.size(); ++d) {
    const Domain& domain = domains[d];
    for (std::int64_t i = domain.owned; i < domain.owned + domain.halo; ++i) {
      const std::int64_t global = ids[d][static_cast<std::size_t>(i)];
      const double copy = domain.volumes[static_cast<std::size_t>(i)];
      const double original = mesh.volumes[static_cast<std::size_t>(global)];
      const double scale = std::max(std::abs(copy), std::abs(original));
      const double mismatch = scale > 0 ? std::abs(copy - original) / scale : 0;
      stats.max_volume_mismatch = std::max(stats.max_volume_mismatch, mismatch);
      if (!(mismatch <= copy_tolerance)) {
        const int owner = mesh.domain[static_cast<std::size_t>(global)];
        throw MeshError(domain.file + ": pvolume of " + point_text(i, domain) + " is " + number(copy) +
                        " but its owner, domain " + std::to_string(owner) + ", has " + number(original) +
                        " for it (global point " + std::to_string(global) + ")");
      }
    }
  }
}

// One listing of a face, keyed by its unordered global point pair.
struct Listing {
  std::int64_t low;
  std::int64_t high;
  std::int64_t index;  // over all files: domain by domain, file order
};

// Where listing `index` comes from.
struct ListingSource {
  std::size_t domain;
  std::int64_t face;
};

class ListingIndex {
 public:
  explicit ListingIndex(const std::vector<Domain>& domains) {
    first_.push_back(0);
    for (const Domain& domain : domains) first_.push_back(first_.back() + domain.faces());
  }
  std::int64_t total() const { return first_.back(); }
  std::int64_t first(std::size_t domain) const { return first_[domain]; }
  ListingSource source(std::int64_t index) const {
    const auto next = std::upper_bound(first_.begin(), first_.end(), index);
    const auto domain = static_cast<std::size_t>(next - first_.begin() - 1);
    return {domain, index - first_[domain]};
  }

 private:
  std::vector<std::int64_t> first_;  // first listing of each domain, then the total
};

std::string listing_text(const std::vector<Domain>& domains, const ListingSource& source) {
  return "face " + std::to_string(source.face) + " of domain " + std::to_string(source.domain) + " (" +
         domains[source.domain].file + ")";
}

void merge_faces(const std::vector<Domain>& domains, const std::vector<std::vector<std::int64_t>>& ids, Mesh& mesh,
                 ReassemblyStats& stats) {
  const ListingIndex index(domains);
  stats.face_entries = index.total();
  std::vector<std::array<std::int64_t, 2>> points(static_cast<std::size_t>(index.total()));
  std::vector<Listing> listings(points.size());
  for (std::size_t d = 0; d < domains.size(); ++d) {
    const Domain& domain = domains[d];
    for (std::int64_t f = 0; f < domain.faces(); ++f) {
      const auto k = static_cast<std::size_t>(index.first(d) + f);
      const int local0 = domain.face_points[static_cast<std::size_t>(2 * f)];
      const int local1 = domain.face_points[static_cast<std::size_t>(2 * f + 1)];
      points[k] = {ids[d][static_cast<std::size_t>(local0)], ids[d][static_cast<std::size_t>(local1)]};
      if (points[k][0] == points[k][1]) {
        throw MeshError(domain.file + ": face " + std::to_string(f) + " joins a point to itself (" +
                        point_text(local0, domain) + " and " + point_text(local1, domain) + " are global point " +
                        std::to_string(points[k][0]) + ")");
      }
      listings[k] = {std::min(points[k][0], points[k][1]), std::max(points[k][0], points[k][1]),
                     static_cast<std::int64_t>(k)};
    }
  }
  std::sort(listings.begin(), listings.end(), [](const Listing& a, const Listing& b) {
    return a.low != b.low ? a.low < b.low : a.high != b.high ? a.high < b.high : a.index < b.index;
  });

  const auto normal_of = [&](std::int64_t k) {
    const ListingSource source = index.source(k);
    const double* n = &domains[source.domain].face_normals[static_cast<std::size_t>(3 * source.face)];
    return std::array<double, 3>{n[0], n[1], n[2]};
  };
  std::vector<char> kept(points.size(), 0);
  for (std::size_t first = 0; first < listings.size();) {
    std::size_t end = first + 1;
    while (end < listings.size() && listings[end].low == listings[first].low &&
           listings[end].high == listings[first].high) {
      ++end;
    }
    const std::int64_t keep = listings[first].index;  // the earliest listing
    kept[static_cast<std::size_t>(keep)] = 1;
    const ListingSource keep_source = index.source(keep);
    const auto normal = normal_of(keep);
    for (std::size_t k = first + 1; k < end; ++k) {
      const std::int64_t other = listings[k].index;
      const ListingSource other_source = index.source(other);
      if (other_source.domain == keep_source.domain) {
        throw MeshError(domains[keep_source.domain].file + ": faces " + std::to_string(keep_source.face) + " and " +
                        std::to_string(other_source.face) + " are the same face (global points " +
                        std::to_string(listings[first].low) + " and " + std::to_string(listings[first].high) + ")");
      }
      const bool swapped = points[static_cast<std::size_t>(other)][0] != points[static_cast<std::size_t>(keep)][0];
      const double sign = swapped ? -1.0 : 1.0;
      const auto other_normal = normal_of(other);
      double difference = 0, scale = 0;
      for (int c = 0; c < 3; ++c) {
        difference = std::max(difference, std::abs(sign * other_normal[c] - normal[c]));
        scale = std::max({scale, std::abs(normal[c]), std::abs(other_normal[c])});
      }
      const double mismatch = scale > 0 ? difference / scale : 0;
      stats.max_normal_mismatch = std::max(stats.max_normal_mismatch, mismatch);
      if (!(mismatch <= copy_tolerance)) {
        throw MeshError("domains " + std::to_string(keep_source.domain) + " and " +
                        std::to_string(other_source.domain) + " disagree on the normal of the face between global " +
                        "points " + std::to_string(listings[first].low) + " and " +
                        std::to_string(listings[first].high) + ": " + listing_text(domains, keep_source) + " and " +
                        listing_text(domains, other_source) + (swapped ? " (listed the other way round)" : "") +
                        " differ by " + number(mismatch) + " relative to its size (tolerance " +
                        number(copy_tolerance) + ")");
      }
      ++stats.merged_duplicates;
      if (swapped) ++stats.swapped_duplicates;
    }
    first = end;
  }

  mesh.faces.reserve(listings.size() - static_cast<std::size_t>(stats.merged_duplicates));
  mesh.normals.reserve(mesh.faces.capacity());
  for (std::size_t k = 0; k < points.size(); ++k) {
    if (!kept[k]) continue;
    mesh.faces.push_back(points[k]);
    mesh.normals.push_back(normal_of(static_cast<std::int64_t>(k)));
  }
}

void check_every_point_on_a_face(const std::vector<Domain>& domains, const std::vector<std::int64_t>& offsets,
                                 const Mesh& mesh) {
  std::vector<char> touched(static_cast<std::size_t>(mesh.points), 0);
  for (const auto& face : mesh.faces) {
    touched[static_cast<std::size_t>(face[0])] = 1;
    touched[static_cast<std::size_t>(face[1])] = 1;
  }
  const auto lonely = std::find(touched.begin(), touched.end(), 0);
  if (lonely == touched.end()) return;
  const auto global = static_cast<std::int64_t>(lonely - touched.begin());
  const auto d = static_cast<std::size_t>(mesh.domain[static_cast<std::size_t>(global)]);
  throw MeshError(domains[d].file + ": owned point " + std::to_string(global - offsets[d]) + " (global point " +
                  std::to_string(global) + ") is on no face of any domain file");
}

// Colour c of domain d becomes global colour first[d] + c; a point takes the colour its owner's file
// gives it. The files' colours must list each of their points exactly once.
void assign_file_colours(const std::vector<Domain>& domains, const std::vector<std::int64_t>& offsets, Mesh& mesh) {
  mesh.colour.assign(static_cast<std::size_t>(mesh.points), -1);
  std::int64_t first = 0;
  for (std::size_t d = 0; d < domains.size(); ++d) {
    const Domain& domain = domains[d];
    const auto all = static_cast<std::size_t>(domain.owned + domain.halo);
    std::vector<char> listed(all, 0);
    std::size_t k = 0;
    for (std::size_t c = 0; c < domain.colour_sizes.size(); ++c) {
      const int size = domain.colour_sizes[c];
      if (size < 0 || static_cast<std::size_t>(size) > all - k)
        throw MeshError(domain.file + ": fcolor_npoints[" + std::to_string(c) + "] is " + std::to_string(size) +
                        "; the colours' sizes must add up to nallpoints " + std::to_string(all));
      for (const std::size_t end = k + static_cast<std::size_t>(size); k < end; ++k) {
        const int p = domain.colour_points[k];
        if (p < 0 || static_cast<std::size_t>(p) >= all || listed[static_cast<std::size_t>(p)])
          throw MeshError(domain.file + ": fcolor_points[" + std::to_string(k) + "] is " + std::to_string(p) +
                          (p < 0 || static_cast<std::size_t>(p) >= all ? ", outside [0, nallpoints)"
                                                                       : ", listed twice"));
        listed[static_cast<std::size_t>(p)] = 1;
        if (p < domain.owned) mesh.colour[static_cast<std::size_t>(offsets[d] + p)] = static_cast<std::int32_t>(first + c);
      }
    }
    if (k != all)
      throw MeshError(domain.file + ": fcolor_npoints adds up to " + std::to_string(k) + ", not nallpoints " +
                      std::to_string(all));
    first += static_cast<std::int64_t>(domain.colour_sizes.size());
  }
  if (first > INT32_MAX) throw MeshError("the domain files hold " + std::to_string(first) + " colours, too many");
  mesh.colours = static_cast<std::int32_t>(first);
  mesh.colour_source = "file";
}

}  // namespace

Mesh read_domain_files(const std::string& path, ReassemblyStats& stats) {
  stats = {};
  const DomainFiles files = find_domain_files(path);
  int domain_count = 0;
  std::vector<Domain> domains;
  domains.push_back(read_domain(files, 0, domain_count));
  for (int d = 1; d < domain_count; ++d) domains.push_back(read_domain(files, d, domain_count));

  Mesh mesh;
  mesh.domains = domain_count;
  std::vector<std::int64_t> offsets;
  for (const Domain& domain : domains) {
    offsets.push_back(mesh.points);
    mesh.points += domain.owned;
  }
  const auto ids = global_ids(domains, offsets);
  gather_volumes(domains, ids, mesh, stats);
  merge_faces(domains, ids, mesh, stats);
  check_every_point_on_a_face(domains, offsets, mesh);
  const bool coloured = std::all_of(domains.begin(), domains.end(), [](const Domain& d) { return !d.colour_sizes.empty(); });
  if (coloured) {
    assign_file_colours(domains, offsets, mesh);
  } else {
    compute_point_colours(mesh);
  }
  mesh.description = "dual grid " + files.prefix + "_domain_<d>_lvl_" +
                     std::to_string(files.level) + " (" + std::to_string(mesh.domains) + " domains, " +
                     std::to_string(mesh.points) + " points, " + std::to_string(mesh.faces.size()) + " faces)";
  return mesh;
}

Mesh read_domain_files(const std::string& path) {
  ReassemblyStats stats;
  return read_domain_files(path, stats);
}

}  // namespace cfdproxy
