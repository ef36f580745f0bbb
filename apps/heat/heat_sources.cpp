// SPDX-License-Identifier: BSD-3-Clause
// The heat.conf parser and the built-in default sources (heat_sources.hpp). Rank 0 reads the file,
// every rank parses the same text, so every rank finds the same error (see docs/heat.md,
// "The config file").
#include "heat_sources.hpp"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include "usage_error.hpp"

namespace heat {
namespace {

std::string_view strip(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return text.substr(first, last - first + 1);
}

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t position = 0;
  while (position < text.size()) {
    const auto start = text.find_first_not_of(" \t\r", position);
    if (start == std::string_view::npos) break;
    auto end = text.find_first_of(" \t\r", start);
    if (end == std::string_view::npos) end = text.size();
    words.push_back(text.substr(start, end - start));
    position = end;
  }
  return words;
}

struct Line {
  int number;              // 1-based, for messages
  std::string_view text;   // comment removed
  std::vector<std::string_view> words;
};

// The lines that hold something, comments removed.
std::vector<Line> content_lines(std::string_view text) {
  std::vector<Line> lines;
  int number = 0;
  std::size_t position = 0;
  while (position <= text.size()) {
    auto end = text.find('\n', position);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(position, end - position);
    ++number;
    if (const auto comment = line.find('#'); comment != std::string_view::npos) {
      line = line.substr(0, comment);
    }
    if (!strip(line).empty()) lines.push_back({number, strip(line), split_words(line)});
    position = end + 1;
  }
  return lines;
}

// std::from_chars rounds the decimal text straight to the nearest float, as the original's
// sscanf("%f") does (going through double first could round twice).
float parse_number(std::string_view word, std::string_view what, const std::string& where) {
  float value = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error != std::errc{} || end != word.data() + word.size() || !std::isfinite(value)) {
    throw UsageError(where + ": " + std::string(what) + " must be a number, got '" +
                     std::string(word) + "'");
  }
  return value;
}

std::string shown(float value) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  return std::string(text, end);
}

void check_fraction(float value, std::string_view what, const std::string& where) {
  if (!(value >= 0.0f && value <= 1.0f)) {
    throw UsageError(where + ": " + std::string(what) +
                     " is a fraction of the domain and must be in [0, 1], got " + shown(value));
  }
}

}  // namespace

std::vector<HeatSource> default_heat_sources() {
  return {{0.0f, 0.0f, 1.0f, 2.5f}, {1.0f, 0.5f, 1.0f, 2.5f}};
}

std::vector<HeatSource> parse_heat_sources(std::string_view text, const std::string& origin) {
  const std::vector<Line> lines = content_lines(text);
  if (lines.empty()) {
    throw UsageError(origin + ": empty; expected the number of heat sources on the first line");
  }
  const Line& count_line = lines.front();
  const std::string count_where = origin + ":" + std::to_string(count_line.number);
  int count = -1;
  const std::string_view count_word = count_line.words.front();
  const auto [end, error] =
      std::from_chars(count_word.data(), count_word.data() + count_word.size(), count);
  if (count_line.words.size() != 1 || error != std::errc{} ||
      end != count_word.data() + count_word.size() || count < 1) {
    throw UsageError(count_where +
                     ": the first line (comments aside) must hold only the number of heat sources "
                     "(a whole number >= 1), got '" +
                     std::string(count_line.text) + "'");
  }
  const int listed = static_cast<int>(lines.size()) - 1;
  if (listed != count) {
    throw UsageError(origin + ": the first line says " + std::to_string(count) +
                     " heat source(s) but the file lists " + std::to_string(listed));
  }

  std::vector<HeatSource> sources;
  for (int i = 1; i <= count; ++i) {
    const Line& line = lines[static_cast<std::size_t>(i)];
    const std::string where = origin + ":" + std::to_string(line.number);
    if (line.words.size() != 4) {
      throw UsageError(where + ": a heat source is 4 numbers 'row col range temperature', got " +
                       std::to_string(line.words.size()));
    }
    HeatSource source;
    source.row = parse_number(line.words[0], "row", where);
    source.col = parse_number(line.words[1], "col", where);
    source.range = parse_number(line.words[2], "range", where);
    source.temperature = parse_number(line.words[3], "temperature", where);
    check_fraction(source.row, "row", where);
    check_fraction(source.col, "col", where);
    if (!(source.range > 0.0f)) {
      throw UsageError(where + ": range must be > 0 (it divides the heat), got " +
                       shown(source.range));
    }
    sources.push_back(source);
  }
  return sources;
}

std::vector<HeatSource> load_heat_sources(const std::string& path, MPI_Comm comm) {
  if (path.empty()) return default_heat_sources();

  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  // Rank 0 sends the text, or an error message flagged by a negative length.
  std::string text;
  long long length = 0;
  if (rank == 0) {
    std::ifstream file(path, std::ios::binary);
    if (file) {
      std::ostringstream content;
      content << file.rdbuf();
      text = content.str();
      length = static_cast<long long>(text.size());
    } else {
      text = "cannot open the config file '" + path + "'";
      length = -static_cast<long long>(text.size());
    }
  }
  MPI_Bcast(&length, 1, MPI_LONG_LONG, 0, comm);
  text.resize(static_cast<std::size_t>(std::llabs(length)));
  MPI_Bcast(text.data(), static_cast<int>(text.size()), MPI_CHAR, 0, comm);
  if (length < 0) throw UsageError(text);
  return parse_heat_sources(text, path);
}

}  // namespace heat
