// SPDX-License-Identifier: BSD-3-Clause
// find_domain_files (domain_files.hpp): a prefix, a file or a directory to the grid's prefix and
// level (see docs/cfdproxy.md, "Reading the reference's domain files").
#include "domain_files.hpp"

#include <filesystem>
#include <optional>
#include <regex>
#include <set>
#include <utility>

#include "mesh.hpp"

namespace cfdproxy {
namespace {

namespace fs = std::filesystem;

// The levels the reference accepts (hybrid.f6.c's usage: -lvl [1-4]).
constexpr int first_level = 1;
constexpr int last_level = 4;

// (prefix, level) of a file named <prefix>_domain_<d>_lvl_<level>, prefix without the directory.
std::optional<std::pair<std::string, int>> parse_file_name(const std::string& name) {
  static const std::regex pattern("(.+)_domain_([0-9]+)_lvl_([0-9]{1,6})");
  std::smatch match;
  if (!std::regex_match(name, match, pattern)) return std::nullopt;
  return std::make_pair(match[1].str(), std::stoi(match[3].str()));
}

std::string grid_list(const std::set<std::pair<std::string, int>>& grids) {
  std::string text;
  for (const auto& [prefix, level] : grids) {
    text += (text.empty() ? "" : ", ") + prefix + " level " + std::to_string(level);
  }
  return text;
}

DomainFiles from_directory(const fs::path& directory) {
  std::set<std::pair<std::string, int>> grids;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(directory, error)) {
    if (!entry.is_regular_file(error)) continue;
    if (auto grid = parse_file_name(entry.path().filename().string())) grids.insert(*grid);
  }
  if (error) throw MeshError(directory.string() + ": cannot list the directory: " + error.message());
  if (grids.empty()) {
    throw MeshError(directory.string() + ": no domain files (<prefix>_domain_<d>_lvl_<level>) in this directory");
  }
  if (grids.size() > 1) {
    const auto& [prefix, level] = *grids.begin();
    throw MeshError(directory.string() + ": holds several grids (" + grid_list(grids) +
                    "); name one of their files, e.g. " + DomainFiles{(directory / prefix).string(), level}.file(0));
  }
  const auto& [prefix, level] = *grids.begin();
  return {(directory / prefix).string(), level};
}

DomainFiles from_prefix(const std::string& prefix) {
  std::vector<int> levels;
  for (int level = first_level; level <= last_level; ++level) {
    std::error_code error;
    if (fs::is_regular_file(DomainFiles{prefix, level}.file(0), error)) levels.push_back(level);
  }
  if (levels.empty()) {
    throw MeshError(prefix + "_domain_0_lvl_<L>: missing file for every level L in " + std::to_string(first_level) +
                    ".." + std::to_string(last_level) +
                    " (expected a grid prefix as the reference takes it, one of its domain files, or a "
                    "directory holding them)");
  }
  if (levels.size() > 1) {
    std::string found;
    for (int level : levels) found += (found.empty() ? "" : ", ") + std::to_string(level);
    throw MeshError(prefix + ": domain 0 files exist for levels " + found + "; name one of them, e.g. " +
                    DomainFiles{prefix, levels.front()}.file(0));
  }
  return {prefix, levels.front()};
}

}  // namespace

std::string DomainFiles::file(int domain) const {
  return prefix + "_domain_" + std::to_string(domain) + "_lvl_" + std::to_string(level);
}

DomainFiles find_domain_files(const std::string& path) {
  if (path.empty()) throw MeshError("mesh path '': empty; expected a grid prefix, a domain file or a directory");
  std::error_code error;
  if (fs::is_directory(path, error)) return from_directory(path);
  const fs::path file(path);
  if (fs::is_regular_file(file, error)) {
    if (auto grid = parse_file_name(file.filename().string())) {
      return {(file.parent_path() / grid->first).string(), grid->second};
    }
  }
  return from_prefix(path);
}

}  // namespace cfdproxy
