// SPDX-License-Identifier: BSD-3-Clause
// The message paths a plan may take, in the order of preference (path_registry.cpp lists the
// built-in ones; a program may add its own before it commits plans). A path's index here is how
// commit descriptors name it, so every rank of a job must register the same paths in the same order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "halo/path.hpp"

namespace ghostwire::detail {

const std::vector<const PathType*>& registered_paths();
// Adds `type` after the paths registered so far (so the automatic choice prefers those). The type
// must outlive every plan; its name must be new. Not thread-safe: call it before plans commit.
void register_path(const PathType& type);
std::size_t path_index(const PathType& type);
const PathType* find_path(std::string_view name);
std::string path_names();  // "auto, pushed, in-place, ..." for error messages
// Changes when any rank's list differs (the commit descriptor carries it).
std::uint64_t registry_fingerprint();

}  // namespace ghostwire::detail
