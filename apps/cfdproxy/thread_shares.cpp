// SPDX-License-Identifier: BSD-3-Clause
// divide_among_threads (local_domain.hpp): which thread writes which point, and each thread's share
// of the faces, cut into colours.
//
// The reference's threaded solver divides a domain the same way (thread domains built from runs of
// the files' colours, a thread writing only its own points, a face between two threads swept by
// both). Here a thread's faces keep the rank's face order instead of being regrouped by type, so
// every point receives its faces' contributions in exactly the order of the single sweep: the
// results are bit for bit the same at any thread count (docs/cfdproxy.md, "Threads and colours").
#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "local_domain.hpp"

namespace cfdproxy {
namespace {

// Owned points in colour order (then local id), cut into `threads` runs of about equal numbers of
// face ends (the work of a point); each halo point goes with the owned point of its first face.
std::vector<std::int32_t> assign_points(const LocalDomain& d, int threads) {
  std::vector<std::int64_t> degree(static_cast<std::size_t>(d.all), 0);
  for (const auto& face : d.faces)
    for (std::int32_t p : face) ++degree[static_cast<std::size_t>(p)];
  std::vector<std::int32_t> order(static_cast<std::size_t>(d.owned));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
    return d.colour[static_cast<std::size_t>(a)] < d.colour[static_cast<std::size_t>(b)];
  });
  std::int64_t total = 0;
  for (std::int32_t p : order) total += degree[static_cast<std::size_t>(p)];
  std::vector<std::int32_t> thread(static_cast<std::size_t>(d.all), -1);
  std::int64_t before = 0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::int64_t work = degree[static_cast<std::size_t>(order[k])];
    // The thread whose run holds the middle of this point's work (by count if there is no work).
    const std::int64_t t = total > 0 ? (2 * before + work) * threads / (2 * total)
                                     : static_cast<std::int64_t>(k) * threads / static_cast<std::int64_t>(order.size());
    thread[static_cast<std::size_t>(order[k])] = static_cast<std::int32_t>(std::min<std::int64_t>(t, threads - 1));
    before += work;
  }
  for (const auto& [a, b] : d.faces) {
    if (thread[static_cast<std::size_t>(b)] < 0) thread[static_cast<std::size_t>(b)] = thread[static_cast<std::size_t>(a)];
    if (thread[static_cast<std::size_t>(a)] < 0) thread[static_cast<std::size_t>(a)] = thread[static_cast<std::size_t>(b)];
  }
  for (std::int32_t& t : thread)
    if (t < 0) t = 0;  // a halo point on no face (not built by build_local_domain): nobody writes it
  return thread;
}

// Each thread's faces in the rank's order, with the points it writes.
std::vector<Share> collect_faces(const LocalDomain& d, int threads) {
  std::vector<Share> shares(static_cast<std::size_t>(threads));
  auto add = [&](std::size_t f, std::int32_t t, std::uint8_t writes) {
    Share& s = shares[static_cast<std::size_t>(t)];
    s.faces.push_back(d.faces[f]);
    s.normals.push_back(d.normals[f]);
    s.writes.push_back(writes);
    s.rank_face.push_back(static_cast<std::int32_t>(f));
  };
  for (std::size_t f = 0; f < d.faces.size(); ++f) {
    const std::int32_t ta = d.thread[static_cast<std::size_t>(d.faces[f][0])];
    const std::int32_t tb = d.thread[static_cast<std::size_t>(d.faces[f][1])];
    if (ta == tb) {
      add(f, ta, writes_both);
    } else {
      add(f, ta, writes_first);
      add(f, tb, writes_second);
    }
  }
  return shares;
}

// Colours of 96 faces; in a point's first colour its sums are zeroed, in its last they are scaled.
// Only the thread's own points are listed. `last_colour` receives each own point's last colour.
void cut_colours(Share& s, std::int32_t t, const std::vector<std::int32_t>& thread, std::vector<std::int32_t>& last_colour) {
  const auto face_count = static_cast<std::int32_t>(s.faces.size());
  for (std::int32_t begin = 0; begin < face_count; begin += faces_per_colour)
    s.colours.push_back(Colour{begin, std::min(begin + faces_per_colour, face_count), 0, 0, 0, 0, false});
  std::vector<std::int32_t> first_colour(thread.size(), -1);
  auto own = [&](std::int32_t p) { return thread[static_cast<std::size_t>(p)] == t; };
  for (std::size_t c = 0; c < s.colours.size(); ++c)
    for (std::int32_t f = s.colours[c].face_begin; f < s.colours[c].face_end; ++f)
      for (std::int32_t p : s.faces[static_cast<std::size_t>(f)]) {
        if (!own(p)) continue;
        if (first_colour[static_cast<std::size_t>(p)] < 0) first_colour[static_cast<std::size_t>(p)] = static_cast<std::int32_t>(c);
        last_colour[static_cast<std::size_t>(p)] = static_cast<std::int32_t>(c);
      }
  // In order of appearance within the colour, as the reference lists them.
  std::vector<std::uint8_t> seen_first(thread.size(), 0), seen_last(thread.size(), 0);
  for (std::size_t c = 0; c < s.colours.size(); ++c) {
    Colour& colour = s.colours[c];
    colour.first_begin = static_cast<std::int32_t>(s.first_points.size());
    colour.last_begin = static_cast<std::int32_t>(s.last_points.size());
    for (std::int32_t f = colour.face_begin; f < colour.face_end; ++f) {
      if (s.writes[static_cast<std::size_t>(f)] != writes_both) colour.one_sided = true;
      for (std::int32_t p : s.faces[static_cast<std::size_t>(f)]) {
        const auto i = static_cast<std::size_t>(p);
        if (!own(p)) continue;
        if (first_colour[i] == static_cast<std::int32_t>(c) && !seen_first[i]) {
          seen_first[i] = 1;
          s.first_points.push_back(p);
        }
        if (last_colour[i] == static_cast<std::int32_t>(c) && !seen_last[i]) {
          seen_last[i] = 1;
          s.last_points.push_back(p);
        }
      }
    }
    colour.first_end = static_cast<std::int32_t>(s.first_points.size());
    colour.last_end = static_cast<std::int32_t>(s.last_points.size());
  }
}

}  // namespace

void divide_among_threads(LocalDomain& d, int threads) {
  if (threads < 1) throw std::invalid_argument("threads must be at least 1, got " + std::to_string(threads));
  if (d.colour.size() != static_cast<std::size_t>(d.all)) d.colour.assign(static_cast<std::size_t>(d.all), 0);
  d.thread = assign_points(d, threads);
  d.shares = collect_faces(d, threads);
  std::vector<std::int32_t> last_colour(static_cast<std::size_t>(d.all), -1);
  for (int t = 0; t < threads; ++t) cut_colours(d.shares[static_cast<std::size_t>(t)], t, d.thread, last_colour);
  for (Partner& partner : d.partners) {
    partner.send_after_colour.assign(static_cast<std::size_t>(threads), -1);
    for (std::int32_t p : partner.send_points) {
      std::int32_t& after = partner.send_after_colour[static_cast<std::size_t>(d.thread[static_cast<std::size_t>(p)])];
      after = std::max(after, last_colour[static_cast<std::size_t>(p)]);
    }
  }
}

}  // namespace cfdproxy
