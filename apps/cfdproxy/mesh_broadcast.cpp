// SPDX-License-Identifier: BSD-3-Clause
// Rank 0's mesh and partition to every rank (mesh_broadcast.hpp), in chunks MPI's int counts can
// carry (see docs/cfdproxy.md, "How it works").
#include "mesh_broadcast.hpp"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace cfdproxy {
namespace {

void broadcast_bytes(void* data, std::size_t bytes, int root, MPI_Comm comm) {
  auto* p = static_cast<char*>(data);
  while (bytes > 0) {  // MPI counts are int
    const std::size_t chunk = std::min<std::size_t>(bytes, INT_MAX / 2);
    if (MPI_Bcast(p, static_cast<int>(chunk), MPI_BYTE, root, comm) != MPI_SUCCESS)
      throw std::runtime_error("MPI_Bcast of the mesh failed");
    p += chunk;
    bytes -= chunk;
  }
}

template <class T>
void broadcast_vector(std::vector<T>& v, int root, MPI_Comm comm) {
  std::uint64_t size = v.size();
  broadcast_bytes(&size, sizeof size, root, comm);
  v.resize(size);
  broadcast_bytes(v.data(), size * sizeof(T), root, comm);
}

void broadcast_text(std::string& text, int root, MPI_Comm comm) {
  std::vector<char> bytes(text.begin(), text.end());
  broadcast_vector(bytes, root, comm);
  text.assign(bytes.begin(), bytes.end());
}

}  // namespace

void broadcast_mesh(Mesh& mesh, int root, MPI_Comm comm) {
  std::int64_t counts[3] = {mesh.points, mesh.domains, mesh.colours};
  broadcast_bytes(counts, sizeof counts, root, comm);
  mesh.points = counts[0];
  mesh.domains = static_cast<int>(counts[1]);
  mesh.colours = static_cast<std::int32_t>(counts[2]);
  broadcast_vector(mesh.faces, root, comm);
  broadcast_vector(mesh.normals, root, comm);
  broadcast_vector(mesh.volumes, root, comm);
  broadcast_vector(mesh.domain, root, comm);
  broadcast_vector(mesh.colour, root, comm);
  broadcast_text(mesh.description, root, comm);
  broadcast_text(mesh.colour_source, root, comm);
}

void broadcast_partition(std::vector<std::int32_t>& part, int root, MPI_Comm comm) {
  broadcast_vector(part, root, comm);
}

}  // namespace cfdproxy
