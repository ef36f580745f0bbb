// SPDX-License-Identifier: BSD-3-Clause
// Helpers shared by the fuzz targets: turning libFuzzer's bytes into a command line, and reading
// small numbers from the bytes for the targets that generate a file from them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gwfuzz {

// One argument per line ("\n" separates them; the last line needs no newline), after argv[0], so a
// seed corpus file reads like the command line it stands for. `strings` owns the text, `argv` points
// into it and ends with a null pointer, as main's.
struct CommandLine {
  std::vector<std::string> strings;
  std::vector<char*> argv;

  CommandLine(const std::uint8_t* data, std::size_t size, const char* program) {
    strings.emplace_back(program);
    std::string current;
    for (std::size_t i = 0; i < size; ++i) {
      if (data[i] == '\n') {
        strings.push_back(current);
        current.clear();
      } else {
        current.push_back(static_cast<char>(data[i]));
      }
    }
    if (size > 0 && data[size - 1] != '\n') strings.push_back(current);
    for (std::string& s : strings) argv.push_back(s.data());
    argv.push_back(nullptr);
  }
  int argc() const { return static_cast<int>(strings.size()); }
};

// Reads the fuzzer's bytes front to back; once they run out every read gives 0, so any input, even
// an empty one, describes a complete case.
class ByteReader {
 public:
  ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t byte() { return position_ < size_ ? data_[position_++] : 0; }
  // A value in [low, high], from one byte (the ranges here are small).
  int in_range(int low, int high) { return low + byte() % (high - low + 1); }
  bool chance(int percent) { return byte() % 100 < percent; }
  // A double from 8 bytes: any bit pattern, NaN and infinities included.
  double any_double() {
    std::uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = (bits << 8) | byte();
    double value;
    static_assert(sizeof value == sizeof bits);
    __builtin_memcpy(&value, &bits, sizeof value);
    return value;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t position_ = 0;
};

}  // namespace gwfuzz
