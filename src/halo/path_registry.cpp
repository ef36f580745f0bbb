// SPDX-License-Identifier: BSD-3-Clause
// The registry of message paths (path_registry.hpp): one line per built-in path, in the order the
// automatic choice prefers them. docs/internals/paths.md, "Adding a path".
#include "halo/path_registry.hpp"

#include <algorithm>

#include "ghostwire/error.hpp"

namespace ghostwire::detail {

// Each built-in path's file defines its type's one instance.
const PathType& pushed_path();
const PathType& in_place_path();
const PathType& cross_memory_path();
const PathType& staged_path();
const PathType& aggregated_path();
const PathType& two_sided_path();
const PathType& notified_write_path();

namespace {

std::vector<const PathType*>& paths() {
  static std::vector<const PathType*> list = {
      &pushed_path(),      // node peers, sparse data written into the receiver's ghost cells
      &in_place_path(),    // node peers, dense data read where it is
      &cross_memory_path(),  // node peers, large private data read by the kernel
      &staged_path(),      // node peers, anything else
      &aggregated_path(),  // other nodes, one message per pair of nodes (when the plan combines)
      &two_sided_path(),   // other nodes, MPI messages (the default transport)
      &notified_write_path(),  // other nodes, one-sided
  };
  return list;
}

}  // namespace

const std::vector<const PathType*>& registered_paths() { return paths(); }

void register_path(const PathType& type) {
  if (find_path(type.name()) != nullptr || std::string_view(type.name()) == "auto")
    raise(Errc::invalid_argument, std::string("register_path: a path named '") + type.name() +
                                      "' is registered already (paths: " + path_names() + ")");
  if (paths().size() >= 64) raise(Errc::invalid_argument, "register_path: 64 paths are registered already");
  paths().push_back(&type);
}

std::size_t path_index(const PathType& type) {
  const auto& list = paths();
  return static_cast<std::size_t>(std::find(list.begin(), list.end(), &type) - list.begin());
}

const PathType* find_path(std::string_view name) {
  for (const PathType* type : paths())
    if (name == type->name()) return type;
  return nullptr;
}

std::string path_names() {
  std::string text = "auto";
  for (const PathType* type : paths()) text += std::string(", ") + type->name();
  return text;
}

std::uint64_t registry_fingerprint() {
  std::uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a over the names in order
  for (const PathType* type : paths()) {
    for (const char* c = type->name(); *c; ++c) hash = (hash ^ static_cast<unsigned char>(*c)) * 0x100000001b3ull;
    hash = (hash ^ 0xffu) * 0x100000001b3ull;
  }
  return hash;
}

}  // namespace ghostwire::detail
