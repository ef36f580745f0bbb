// SPDX-License-Identifier: BSD-3-Clause
// load_mesh: what --mesh names, "generated:N" or the reference's domain files.
// See docs/cfdproxy.md, "What `--mesh` accepts".
#include <cerrno>
#include <cstdlib>
#include <string>

#include "mesh.hpp"

namespace cfdproxy {

Mesh load_mesh(const std::string& spec) {
  const std::string generated = "generated:";
  if (spec.rfind(generated, 0) != 0) return read_domain_files(spec);
  const std::string count = spec.substr(generated.size());
  char* end = nullptr;
  errno = 0;
  const long long points = count.empty() || count[0] == '-' || count[0] == '+' || count[0] == ' '
                               ? 0
                               : std::strtoll(count.c_str(), &end, 10);
  if (points <= 0 || errno == ERANGE || end == nullptr || *end != '\0') {
    throw MeshError("mesh '" + spec + "': expected generated:N with N a whole number of points > 0");
  }
  return generate_mesh(points);
}

}  // namespace cfdproxy
