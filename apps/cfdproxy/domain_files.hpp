// SPDX-License-Identifier: BSD-3-Clause
// DomainFiles: where the files of a pre-partitioned dual grid are. The reference CFD-Proxy opens
// `<prefix>_domain_<rank>_lvl_<level>` on each rank (hybrid.f6.c: `-lvl <level> <prefix>`); here one
// process reads them all, so the user names the grid once and this finds prefix and level.
// See docs/cfdproxy.md, "Reading the reference's domain files".
#pragma once

#include <string>

namespace cfdproxy {

struct DomainFiles {
  std::string prefix;  // everything before "_domain_", directory included
  int level = 0;       // multigrid level in the file names

  std::string file(int domain) const;  // <prefix>_domain_<domain>_lvl_<level>
};

// `path` is one of:
//   a prefix as the reference takes it (".../dualgrid"): the level is the one L in 1..4 for which
//     <prefix>_domain_0_lvl_<L> exists (several: an error asking to name one file);
//   one of the domain files (".../dualgrid_domain_0_lvl_2"): its prefix and level;
//   a directory: the single prefix and level of the domain files in it.
// Throws MeshError naming the path and what was found instead.
DomainFiles find_domain_files(const std::string& path);

}  // namespace cfdproxy
