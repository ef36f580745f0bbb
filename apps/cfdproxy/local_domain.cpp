// SPDX-License-Identifier: BSD-3-Clause
// build_local_domain (local_domain.hpp): a rank's points and faces in the reference's order (see
// docs/cfdproxy.md, "How it works"); thread_shares.cpp divides them among the threads.
#include "local_domain.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace cfdproxy {
namespace {

constexpr std::int32_t not_local = -1;

struct Numbering {
  std::vector<std::int32_t> local_of;  // by global id
  std::vector<std::int64_t> global_id;
  std::int32_t owned = 0;
};

// Owned points in global order, then the halo: non-owned points of faces touching an owned point,
// by owner rank, then global id (each partner's points are one contiguous run, in the order the
// partner sends them).
Numbering number_points(const Mesh& mesh, const std::vector<std::int32_t>& part, int rank,
                        std::vector<std::size_t>& kept_faces) {
  Numbering n;
  n.local_of.assign(static_cast<std::size_t>(mesh.points), not_local);
  for (std::int64_t g = 0; g < mesh.points; ++g)
    if (part[static_cast<std::size_t>(g)] == rank) {
      n.local_of[static_cast<std::size_t>(g)] = static_cast<std::int32_t>(n.global_id.size());
      n.global_id.push_back(g);
    }
  n.owned = static_cast<std::int32_t>(n.global_id.size());
  if (n.owned == 0) throw std::runtime_error("rank " + std::to_string(rank) + " owns no point of the mesh");

  std::vector<std::int64_t> halo;
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    auto [a, b] = mesh.faces[f];
    bool owns_a = part[static_cast<std::size_t>(a)] == rank, owns_b = part[static_cast<std::size_t>(b)] == rank;
    if (!owns_a && !owns_b) continue;
    kept_faces.push_back(f);
    if (!owns_a) halo.push_back(a);
    if (!owns_b) halo.push_back(b);
  }
  auto by_owner = [&](std::int64_t x, std::int64_t y) {
    auto px = part[static_cast<std::size_t>(x)], py = part[static_cast<std::size_t>(y)];
    return px != py ? px < py : x < y;
  };
  std::sort(halo.begin(), halo.end(), by_owner);
  halo.erase(std::unique(halo.begin(), halo.end()), halo.end());
  for (std::int64_t g : halo) {
    n.local_of[static_cast<std::size_t>(g)] = static_cast<std::int32_t>(n.global_id.size());
    n.global_id.push_back(g);
  }
  return n;
}

std::vector<Partner> find_partners(const Mesh& mesh, const std::vector<std::int32_t>& part, const Numbering& n,
                                   const std::vector<std::size_t>& kept_faces) {
  std::vector<Partner> partners;
  for (std::int32_t l = n.owned; l < static_cast<std::int32_t>(n.global_id.size()); ++l) {
    int owner = part[static_cast<std::size_t>(n.global_id[static_cast<std::size_t>(l)])];
    if (partners.empty() || partners.back().rank != owner) {
      partners.push_back(Partner{owner, {}, l, 0, {}});
    }
    ++partners.back().halo_count;
  }
  // My send points to a partner are my points in its halo: owned points sharing a face with one
  // of its points, in global order (its halo order).
  std::vector<std::vector<std::int64_t>> sends(partners.size());
  auto partner_index = [&](int rank) {
    auto it = std::lower_bound(partners.begin(), partners.end(), rank,
                               [](const Partner& p, int r) { return p.rank < r; });
    return static_cast<std::size_t>(it - partners.begin());
  };
  for (std::size_t f : kept_faces) {
    auto [a, b] = mesh.faces[f];
    bool owns_a = n.local_of[static_cast<std::size_t>(a)] < n.owned, owns_b = n.local_of[static_cast<std::size_t>(b)] < n.owned;
    if (owns_a && !owns_b) sends[partner_index(part[static_cast<std::size_t>(b)])].push_back(a);
    if (owns_b && !owns_a) sends[partner_index(part[static_cast<std::size_t>(a)])].push_back(b);
  }
  for (std::size_t i = 0; i < partners.size(); ++i) {
    std::sort(sends[i].begin(), sends[i].end());
    sends[i].erase(std::unique(sends[i].begin(), sends[i].end()), sends[i].end());
    for (std::int64_t g : sends[i]) partners[i].send_points.push_back(n.local_of[static_cast<std::size_t>(g)]);
  }
  return partners;
}

// The reference's face order: descending by (whether the face touches a communicated point, its
// second point, its first point), so the faces of send and halo points come first.
void sort_faces(LocalDomain& d) {
  std::vector<std::uint8_t> communicated(static_cast<std::size_t>(d.all), 0);
  for (std::int32_t l = d.owned; l < d.all; ++l) communicated[static_cast<std::size_t>(l)] = 1;
  for (const Partner& p : d.partners)
    for (std::int32_t l : p.send_points) communicated[static_cast<std::size_t>(l)] = 1;
  std::vector<std::size_t> order(d.faces.size());
  std::iota(order.begin(), order.end(), 0);
  auto key = [&](std::size_t f) {
    auto [a, b] = d.faces[f];
    int type = std::max(communicated[static_cast<std::size_t>(a)], communicated[static_cast<std::size_t>(b)]);
    return std::array<std::int64_t, 3>{type, b, a};
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return key(x) > key(y); });
  std::vector<std::array<std::int32_t, 2>> faces(d.faces.size());
  std::vector<std::array<double, 3>> normals(d.faces.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    faces[i] = d.faces[order[i]];
    normals[i] = d.normals[order[i]];
  }
  d.faces = std::move(faces);
  d.normals = std::move(normals);
}

}  // namespace

LocalDomain build_local_domain(const Mesh& mesh, const std::vector<std::int32_t>& part, int rank, int threads) {
  if (part.size() != static_cast<std::size_t>(mesh.points))
    throw std::runtime_error("partition has " + std::to_string(part.size()) + " entries for " +
                             std::to_string(mesh.points) + " points");
  std::vector<std::size_t> kept_faces;
  Numbering n = number_points(mesh, part, rank, kept_faces);

  LocalDomain d;
  d.rank = rank;
  d.owned = n.owned;
  d.all = static_cast<std::int32_t>(n.global_id.size());
  d.volume.reserve(n.global_id.size());
  for (std::int64_t g : n.global_id) d.volume.push_back(mesh.volumes[static_cast<std::size_t>(g)]);
  d.colour.reserve(n.global_id.size());
  for (std::int64_t g : n.global_id) d.colour.push_back(mesh.colour.empty() ? 0 : mesh.colour[static_cast<std::size_t>(g)]);
  d.faces.reserve(kept_faces.size());
  d.normals.reserve(kept_faces.size());
  for (std::size_t f : kept_faces) {
    auto [a, b] = mesh.faces[f];
    d.faces.push_back({n.local_of[static_cast<std::size_t>(a)], n.local_of[static_cast<std::size_t>(b)]});
    d.normals.push_back(mesh.normals[f]);
  }
  d.partners = find_partners(mesh, part, n, kept_faces);
  d.global_id = std::move(n.global_id);
  sort_faces(d);
  divide_among_threads(d, threads);
  return d;
}

}  // namespace cfdproxy
