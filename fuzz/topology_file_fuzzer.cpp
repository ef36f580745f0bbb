// SPDX-License-Identifier: BSD-3-Clause
// GHOSTWIRE_TOPOLOGY files: TopologyFile::parse either returns host placements or throws
// ghostwire::Error with Errc::invalid_argument.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "ghostwire/error.hpp"
#include "ghostwire/topo.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const auto file = ghostwire::topo::TopologyFile::parse(in, "fuzz.topology");
    // Every host's path has one value per level.
    for (const auto& [host, path] : file.hosts())
      if (path.size() != file.levels().size()) __builtin_trap();
  } catch (const ghostwire::Error& e) {
    if (e.code() != ghostwire::Errc::invalid_argument) __builtin_trap();
  }
  return 0;
}
