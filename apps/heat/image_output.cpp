// SPDX-License-Identifier: BSD-3-Clause
// PpmImage (image_output.hpp): the original's P3 image of the final field, byte for byte (see
// docs/heat.md, "Output").
#include "image_output.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>

#include "usage_error.hpp"

namespace heat {
namespace {

struct Rgb {
  unsigned red, green, blue;
};

// 1024 colours from blue (0, coldest) through cyan, green and yellow to red (1023, hottest), in
// four ramps of 256 steps.
Rgb colour(int index) {
  const unsigned from_hot = static_cast<unsigned>(1023 - index);
  const unsigned step = from_hot % 256;
  switch (from_hot / 256) {
    case 0: return {255, step, 0};
    case 1: return {255 - step, 255, 0};
    case 2: return {0, 255, step};
    default: return {0, 255 - step, 255};
  }
}

void append_number(std::string& text, unsigned value) {
  char digits[8];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  text.append(digits, end);
}

}  // namespace

PpmImage::PpmImage(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "w")) {
  if (file_ == nullptr) {
    throw UsageError("cannot write the image file '" + path + "': " + std::strerror(errno));
  }
}

PpmImage::~PpmImage() {
  if (file_ != nullptr) std::fclose(file_);
}

void PpmImage::write(std::span<const double> field, int total_rows, int total_cols) {
  const auto [low, high] = std::minmax_element(field.begin(), field.end());
  const double min = *low;
  const double max = *high;

  std::fprintf(file_, "P3\n%d %d\n255\n", total_cols, total_rows);
  std::string line;
  for (int x = 0; x < total_rows; ++x) {
    line.clear();
    for (int y = 0; y < total_cols; ++y) {
      const double value = field[static_cast<std::size_t>(x) * total_cols + y];
      const int index = (max - min != 0) ? static_cast<int>(1023.0 * (value - min) / (max - min)) : 0;
      const Rgb rgb = colour(index);
      append_number(line, rgb.red);
      line += ' ';
      append_number(line, rgb.green);
      line += ' ';
      append_number(line, rgb.blue);
      line += "  ";
    }
    line += '\n';
    std::fwrite(line.data(), 1, line.size(), file_);
  }
  const bool failed = std::ferror(file_) != 0;
  const int closed = std::fclose(file_);
  file_ = nullptr;
  if (failed || closed != 0) throw std::runtime_error("writing the image file '" + path_ + "' failed");
}

}  // namespace heat
