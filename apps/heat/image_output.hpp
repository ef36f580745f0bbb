// SPDX-License-Identifier: BSD-3-Clause
// -o FILE: the final field as a PPM image, in the original benchmark's format (ASCII P3, its
// blue-to-red colour scale over the field's min..max), so images of both can be compared byte for
// byte.
// See docs/heat.md, "Output".
#pragma once

#include <cstdio>
#include <span>
#include <string>

namespace heat {

class PpmImage {
 public:
  // Opens (and truncates) `path` now, so that a path that cannot be written fails before the run.
  // Throws UsageError naming the path and the reason.
  explicit PpmImage(const std::string& path);
  ~PpmImage();
  PpmImage(const PpmImage&) = delete;
  PpmImage& operator=(const PpmImage&) = delete;

  // `field` is (total_rows x total_cols), row-major, boundary included. Throws on a write error.
  void write(std::span<const double> field, int total_rows, int total_cols);

 private:
  std::string path_;
  std::FILE* file_;
};

}  // namespace heat
