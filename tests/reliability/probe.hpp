// SPDX-License-Identifier: BSD-3-Clause
// What the reliability programs measure about their own process: resident memory (from
// /proc/self/status), the heap in use (glibc's mallinfo2) and the shared-memory files the process
// has mapped (from /proc/self/maps), so a test can check after the job that none is left behind.
#pragma once

#include <malloc.h>

#include <cstddef>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace gwreliab {

// A field of /proc/self/status in KiB ("VmRSS", "VmHWM"); -1 if missing.
inline long status_kib(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.compare(0, field.size() + 1, field + ":") == 0) return std::stol(line.substr(field.size() + 1));
  return -1;
}

// Bytes the program holds on the heap (small blocks and mmap'ed large blocks).
inline long heap_bytes() {
  struct mallinfo2 info = mallinfo2();
  return static_cast<long>(info.uordblks + info.hblkhd);
}

// Files under /dev/shm this process maps now (a name still linked, or one marked "(deleted)").
inline std::set<std::string> mapped_shm_files() {
  std::ifstream maps("/proc/self/maps");
  std::set<std::string> names;
  std::string line;
  while (std::getline(maps, line)) {
    std::size_t at = line.find("/dev/shm/");
    if (at == std::string::npos) continue;
    std::string name = line.substr(at);
    std::size_t deleted = name.find(" (deleted)");
    if (deleted != std::string::npos) continue;  // already unlinked: cannot be left behind
    names.insert(name);
  }
  return names;
}

inline std::string join(const std::set<std::string>& names) {
  std::ostringstream text;
  for (const std::string& name : names) text << ' ' << name;
  return text.str();
}

}  // namespace gwreliab
