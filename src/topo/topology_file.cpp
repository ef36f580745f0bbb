// SPDX-License-Identifier: BSD-3-Clause
// Topology files (Settings::topology_file, GHOSTWIRE_TOPOLOGY, gw-topo's file: machines):
// host -> placement, in Cray's xtprocadmin form or level=value,...
#include <cctype>
#include <charconv>
#include <fstream>
#include <sstream>

#include "ghostwire/error.hpp"
#include "ghostwire/topo.hpp"

namespace ghostwire::topo {
namespace {

const std::vector<std::string> cray_levels = {"group", "cabinet", "chassis", "blade", "node"};

// Reads digits at text[pos...]; false when there are none.
bool read_number(std::string_view text, std::size_t& pos, int& value) {
  const char* first = text.data() + pos;
  const char* last = text.data() + text.size();
  auto [end, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || end == first || value < 0) return false;
  pos += static_cast<std::size_t>(end - first);
  return true;
}

bool expect(std::string_view text, std::size_t& pos, char c) {
  if (pos >= text.size() || text[pos] != c) return false;
  ++pos;
  return true;
}

bool is_integer(std::string_view s) {
  if (s.empty() || s.size() > 9) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// Built by append: gcc 12's -Wrestrict misfires on "'" + std::string (GCC bug 105329).
std::string quoted(std::string_view text) {
  std::string out(1, '\'');
  out.append(text);
  out.push_back('\'');
  return out;
}

}  // namespace

std::vector<int> parse_cray_name(std::string_view text) {
  // c<column>-<row>c<chassis>s<blade>n<node>
  std::size_t pos = 0;
  int column = 0, row = 0, chassis = 0, blade = 0, node = 0;
  if (!expect(text, pos, 'c') || !read_number(text, pos, column) || !expect(text, pos, '-') ||
      !read_number(text, pos, row) || !expect(text, pos, 'c') || !read_number(text, pos, chassis) ||
      !expect(text, pos, 's') || !read_number(text, pos, blade) || !expect(text, pos, 'n') ||
      !read_number(text, pos, node) || pos != text.size())
    raise(Errc::invalid_argument, quoted(text) + " is not a Cray name c<column>-<row>c<chassis>s<blade>n<node> (e.g. c11-2c0s15n3)");
  // An Aries group is a pair of cabinets in a row: group = row * 1000 + column / 2, so the column
  // must stay below 2000 and the row small enough for that to fit an int (fuzz finding: overflow).
  if (column >= 2000 || row >= 1000000)
    raise(Errc::invalid_argument, quoted(text) + ": column " + std::to_string(column) + " or row " +
                                      std::to_string(row) + " out of range (columns below 2000, rows below 1000000)");
  return {row * 1000 + column / 2, column % 2, chassis, blade, node};
}

TopologyFile TopologyFile::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) raise(Errc::invalid_argument, "topology file '" + path + "': cannot open the file");
  return parse(in, path);
}

TopologyFile TopologyFile::parse(std::istream& in, const std::string& name) {
  TopologyFile file;
  file.name_ = name;
  // Generic values that are names get numbers in order of appearance, per level.
  std::vector<std::map<std::string, int>> names;
  bool generic = false, add_node = false;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    auto fail = [&](const std::string& why) {
      raise(Errc::invalid_argument, name + ":" + std::to_string(number) + ": " + why + " (line: '" + line + "')");
    };
    std::string text = line.substr(0, line.find('#'));
    std::istringstream words(text);
    std::string host, placement, extra;
    if (!(words >> host)) continue;  // blank or comment
    if (!(words >> placement)) fail("expected 'HOST PLACEMENT', found only '" + host + "'");
    if (words >> extra) fail("unexpected '" + extra + "' after the placement");
    if (file.hosts_.count(host)) fail("host '" + host + "' is listed twice");
    std::vector<std::string> levels;
    std::vector<int> values;
    const bool is_generic = placement.find('=') != std::string::npos;
    if (!is_generic) {
      try {
        values = parse_cray_name(placement);
      } catch (const Error& e) {
        fail(std::string(e.what()) + "; or use level=value,...");
      }
      levels = cray_levels;
    } else {
      std::istringstream items(placement);
      std::string item;
      while (std::getline(items, item, ',')) {
        const std::size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
          fail("'" + item + "' is not level=value");
        levels.push_back(item.substr(0, eq));
        const std::string value = item.substr(eq + 1);
        if (names.size() < levels.size()) names.resize(levels.size());
        auto& seen = names[levels.size() - 1];
        if (is_integer(value)) {
          values.push_back(std::stoi(value));
        } else {
          auto it = seen.emplace(value, 1000000000 - 1 - static_cast<int>(seen.size())).first;
          values.push_back(it->second);
        }
      }
      for (std::size_t i = 0; i < levels.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
          if (levels[i] == levels[j]) fail("level '" + levels[i] + "' appears twice");
    }
    if (file.hosts_.empty()) {
      generic = is_generic;
      add_node = generic && levels.back() != "node";
      file.levels_ = levels;
      if (add_node) file.levels_.push_back("node");
    } else {
      if (is_generic != generic)
        fail(std::string("a ") + (is_generic ? "level=value" : "Cray") + " placement in a file of " +
             (generic ? "level=value" : "Cray") + " placements");
      std::vector<std::string> expected(file.levels_.begin(), file.levels_.end() - (add_node ? 1 : 0));
      if (levels != expected) {
        std::string want;
        for (const auto& l : expected) want += (want.empty() ? "" : ",") + l;
        fail("the levels differ from the first line's (" + want + ")");
      }
    }
    if (add_node) values.push_back(static_cast<int>(file.hosts_.size()));  // each host its own node
    file.hosts_.emplace(host, std::move(values));
  }
  if (file.hosts_.empty()) raise(Errc::invalid_argument, name + ": no host is listed");
  return file;
}

const std::vector<int>& TopologyFile::placement(const std::string& host) const {
  auto it = hosts_.find(host);
  if (it == hosts_.end()) raise(Errc::invalid_argument, name_ + ": host '" + host + "' is not listed");
  return it->second;
}

}  // namespace ghostwire::topo
