// SPDX-License-Identifier: BSD-3-Clause
// CartGrid and Graph: the process grid whose positions are mapped, and its neighbour graph.
#include <algorithm>
#include <map>
#include <sstream>

#include "ghostwire/error.hpp"
#include "ghostwire/topo.hpp"
#include "runtime/factorisation.hpp"

namespace ghostwire::topo {

CartGrid CartGrid::make(std::vector<int> extents, std::vector<bool> periodic, const std::vector<int>& local, int element,
                        int width) {
  const std::size_t n = extents.size();
  if (n < 1 || n > 3) raise(Errc::invalid_argument, "CartGrid: " + std::to_string(n) + " dimensions, expected 1 to 3");
  if (periodic.size() != n || local.size() != n)
    raise(Errc::invalid_argument, "CartGrid: extents, periodic and local sizes need one value per dimension");
  for (std::size_t d = 0; d < n; ++d)
    if (extents[d] < 1 || local[d] < 1)
      raise(Errc::invalid_argument, "CartGrid: extent " + std::to_string(extents[d]) + " and local size " +
                                        std::to_string(local[d]) + " of dimension " + std::to_string(d) + " must be >= 1");
  if (element < 1 || width < 1) raise(Errc::invalid_argument, "CartGrid: element size and halo width must be >= 1");
  CartGrid grid{std::move(extents), std::move(periodic), {}};
  for (std::size_t d = 0; d < n; ++d) {
    std::int64_t face = static_cast<std::int64_t>(element) * width;
    for (std::size_t e = 0; e < n; ++e)
      if (e != d) face *= local[e];
    grid.face_bytes.push_back(face);
  }
  return grid;
}

CartGrid CartGrid::parse(const std::string& spec, int ranks, const std::vector<int>& local, int element) {
  auto fail = [&](const std::string& why) {
    raise(Errc::invalid_argument, "grid '" + spec + "': " + why + " (expected e.g. 3d:24,24,16, 2d:96,96, 3d:auto, "
                                                                  "with :open for non-periodic)");
  };
  const std::size_t colon = spec.find(':');
  if (colon != 2 || spec[1] != 'd' || (spec[0] != '2' && spec[0] != '3')) fail("unknown dimensions");
  const int dims = spec[0] - '0';
  std::string rest = spec.substr(3);
  bool open = false;
  if (const std::size_t c = rest.find(':'); c != std::string::npos) {
    if (rest.substr(c + 1) != "open") fail("'" + rest.substr(c + 1) + "' is not 'open'");
    open = true;
    rest = rest.substr(0, c);
  }
  std::vector<int> extents;
  if (rest == "auto") {
    if (ranks < 1) fail("auto needs the machine's rank count");
    extents.resize(static_cast<std::size_t>(dims));
    ghostwire::detail::balanced_factors(ranks, dims, extents.data(), "CartGrid::parse");
  } else {
    std::istringstream items(rest);
    std::string item;
    while (std::getline(items, item, ',')) {
      char* end = nullptr;
      const long v = std::strtol(item.c_str(), &end, 10);
      if (item.empty() || *end != '\0' || v < 1 || v > 1000000) fail("'" + item + "' is not an extent");
      extents.push_back(static_cast<int>(v));
    }
    if (static_cast<int>(extents.size()) != dims) fail(std::to_string(extents.size()) + " extents");
  }
  std::vector<int> l = local;
  if (l.size() == 1) l.assign(static_cast<std::size_t>(dims), local[0]);
  if (static_cast<int>(l.size()) != dims) fail("local block has " + std::to_string(local.size()) + " sizes");
  return make(std::move(extents), std::vector<bool>(static_cast<std::size_t>(dims), !open), l, element);
}

int CartGrid::size() const noexcept {
  int n = 1;
  for (int e : extents) n *= e;
  return n;
}

std::vector<int> CartGrid::coords(int position) const {
  std::vector<int> c(extents.size());
  for (std::size_t d = extents.size(); d-- > 0;) {
    c[d] = position % extents[d];
    position /= extents[d];
  }
  return c;
}

int CartGrid::position(const std::vector<int>& coords) const {
  int p = 0;
  for (std::size_t d = 0; d < extents.size(); ++d) p = p * extents[d] + coords[d];
  return p;
}

std::string CartGrid::describe() const {
  std::ostringstream out;
  for (std::size_t d = 0; d < extents.size(); ++d) out << (d ? " x " : "") << extents[d];
  bool all = std::all_of(periodic.begin(), periodic.end(), [](bool p) { return p; });
  bool none = std::none_of(periodic.begin(), periodic.end(), [](bool p) { return p; });
  out << (all ? " periodic" : none ? " open" : " mixed periodic") << ", face bytes";
  for (std::size_t d = 0; d < extents.size(); ++d) out << (d ? "," : " ") << face_bytes[d];
  return out.str();
}

Graph Graph::of(const CartGrid& grid) {
  const int n = grid.size();
  std::vector<std::map<int, std::int64_t>> adjacency(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p) {
    std::vector<int> c = grid.coords(p);
    for (int d = 0; d < grid.dimensions(); ++d) {
      const int e = grid.extents[static_cast<std::size_t>(d)];
      for (int step : {-1, 1}) {
        std::vector<int> q = c;
        q[static_cast<std::size_t>(d)] += step;
        if (q[static_cast<std::size_t>(d)] < 0 || q[static_cast<std::size_t>(d)] >= e) {
          if (!grid.periodic[static_cast<std::size_t>(d)]) continue;
          q[static_cast<std::size_t>(d)] = (q[static_cast<std::size_t>(d)] + e) % e;
        }
        const int other = grid.position(q);
        if (other != p) adjacency[static_cast<std::size_t>(p)][other] += grid.face_bytes[static_cast<std::size_t>(d)];
      }
    }
  }
  Graph graph;
  graph.offsets.push_back(0);
  for (const auto& row : adjacency) {
    for (const auto& [target, bytes] : row) {
      graph.targets.push_back(target);
      graph.weights.push_back(bytes);
    }
    graph.offsets.push_back(static_cast<int>(graph.targets.size()));
  }
  return graph;
}

}  // namespace ghostwire::topo
