// SPDX-License-Identifier: BSD-3-Clause
// The deck parser (deck.hpp): the reference's tokens and keywords, with every line it would
// silently ignore a UsageError naming the line and keyword (see docs/cloverleaf.md, "Decks").
#include "deck.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <functional>
#include <limits>

#include "usage_error.hpp"

namespace cloverleaf {
namespace {

// One word of the *clover block. `line_end`: the last word of its line, where a state's list of
// parameters ends (the reference reads them from the rest of the state's line only).
struct Token {
  std::string word;
  int line = 0;
  bool line_end = false;
};

struct Tokens {
  std::vector<Token> words;
  bool found_block = false;
};

constexpr std::size_t line_limit = 100;

[[noreturn]] void fail(const std::string& path, int line, const std::string& message) {
  if (line > 0) throw UsageError(path + " line " + std::to_string(line) + ": " + message);
  throw UsageError(path + ": " + message);
}

// The reference's parse_getline: blanks for control characters, comments cut at '!' and ';',
// lower case, block markers (*name ... *endname, nestable, *select: lines ignored), and only the
// words of lines directly inside *clover kept.
Tokens tokenize(std::string_view text, const std::string& path, std::vector<std::string>& lines_out) {
  Tokens tokens;
  struct Open {
    std::string name;
    int line;
  };
  std::vector<Open> blocks;
  int number = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (start == text.size() && end == start) break;  // no empty last line after the final newline
    std::string line(text.substr(start, end - start));
    start = end + 1;
    ++number;
    lines_out.push_back(line);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    for (char& c : line) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 32 || u > 127) c = ' ';
      c = static_cast<char>(std::tolower(u));
    }
    const std::size_t first = line.find_first_not_of(' ');
    line = first == std::string::npos ? std::string() : line.substr(first);
    const std::size_t comment = line.find_first_of("!;");
    if (comment != std::string::npos) line.resize(comment);
    if (line.rfind("*select:", 0) == 0) continue;
    if (!line.empty() && line.front() == '*') {
      const std::string nugget = line.substr(0, line.find(' '));
      if (nugget.rfind("*end", 0) == 0) {
        const std::string name = nugget.substr(4);
        if (blocks.empty() || blocks.back().name != name) {
          fail(path, number,
               "'" + nugget + "' closes no open *" + name + " block" +
                   (blocks.empty() ? std::string()
                                   : " (the open block is *" + blocks.back().name + " from line " +
                                         std::to_string(blocks.back().line) + ")"));
        }
        blocks.pop_back();
      } else {
        blocks.push_back({nugget.substr(1), number});
        if (blocks.size() == 1 && blocks.back().name == "clover") tokens.found_block = true;
      }
      continue;
    }
    if (blocks.size() != 1 || blocks.front().name != "clover") continue;
    // The reference reads 100 characters of a line (FMT='(a100)') and silently drops the rest.
    if (lines_out.back().size() > line_limit) {
      const std::string& raw = lines_out.back();
      const std::size_t cut = std::min(raw.find_first_of("!;"), raw.size());
      const std::size_t last = raw.find_last_not_of(" \t\r", cut == 0 ? 0 : cut - 1);
      if (cut > line_limit && last != std::string::npos && last >= line_limit) {
        fail(path, number,
             "the line is " + std::to_string(last + 1) + " characters long, and the reference reads only the first " +
                 std::to_string(line_limit) + " (it would drop '" + raw.substr(line_limit, last + 1 - line_limit) +
                 "'); continue the line on the next one after a word '\\'");
      }
    }

    std::replace(line.begin(), line.end(), '=', ' ');
    std::replace(line.begin(), line.end(), ',', ' ');
    std::size_t before = tokens.words.size();
    bool continues = false;
    std::size_t at = 0;
    while (at < line.size()) {
      const std::size_t word_start = line.find_first_not_of(' ', at);
      if (word_start == std::string::npos) break;
      const std::size_t word_end = std::min(line.find(' ', word_start), line.size());
      std::string word = line.substr(word_start, word_end - word_start);
      at = word_end;
      if (word == "\\") {  // the reference reads on from the next line and drops the rest of this one
        continues = true;
        break;
      }
      tokens.words.push_back({word, number, false});
    }
    if (tokens.words.size() > before && !continues) tokens.words.back().line_end = true;
  }
  if (!tokens.words.empty()) tokens.words.back().line_end = true;
  return tokens;
}

bool is_integer_text(std::string_view s) {
  std::size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

// Fortran reals: digits with an optional point and exponent (e or d). No hex, inf or nan.
bool is_real_text(std::string_view s) {
  std::size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
  std::size_t digits = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'd')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t exponent = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++exponent;
    if (exponent == 0) return false;
  }
  return i == s.size();
}

constexpr std::string_view keyword_list =
    "initial_timestep, max_timestep, timestep_rise, end_time, end_step, xmin, xmax, ymin, ymax, x_cells, "
    "y_cells, visit_frequency, summary_frequency, tiles_per_chunk, tiles_per_problem, use_fortran_kernels, "
    "use_c_kernels, use_oa_kernels, profiler_on, test_problem, state";
constexpr std::string_view state_keyword_list = "density, energy, xvel, yvel, geometry, xmin, xmax, ymin, ymax, radius";

class Parser {
 public:
  Parser(Tokens tokens, const std::string& path, int ranks) : tokens_(std::move(tokens)), path_(path), ranks_(ranks) {}

  void run(Deck& deck) {
    using Handler = std::function<void(const Token&)>;
    auto real = [this](double& into) { return Handler([this, p = &into](const Token& k) { *p = real_value(k); }); };
    auto integer = [this](int& into) { return Handler([this, p = &into](const Token& k) { *p = int_value(k); }); };
    const std::map<std::string, Handler, std::less<>> handlers = {
        {"initial_timestep", real(deck.dtinit)},
        {"max_timestep", real(deck.dtmax)},
        {"timestep_rise", real(deck.dtrise)},
        {"end_time", real(deck.end_time)},
        {"end_step", integer(deck.end_step)},
        {"xmin", real(deck.xmin)},
        {"xmax", real(deck.xmax)},
        {"ymin", real(deck.ymin)},
        {"ymax", real(deck.ymax)},
        {"x_cells", integer(deck.x_cells)},
        {"y_cells", integer(deck.y_cells)},
        {"visit_frequency", integer(deck.visit_frequency)},
        {"summary_frequency", integer(deck.summary_frequency)},
        {"tiles_per_chunk", integer(deck.tiles_per_chunk)},
        {"tiles_per_problem",
         [&](const Token& k) {
           deck.tiles_per_chunk = int_value(k) / ranks_;
           deck.lines["tiles_per_chunk"] = k.line;
         }},
        {"use_fortran_kernels", [&](const Token&) { deck.kernels = "fortran"; }},
        {"use_c_kernels", [&](const Token&) { deck.kernels = "c"; }},
        {"use_oa_kernels", [&](const Token&) { deck.kernels = "openacc"; }},
        {"profiler_on", [&](const Token&) { deck.profiler_on = true; }},
        {"test_problem", integer(deck.test_problem)},
        {"state", [&](const Token& k) { read_state(deck, k); }},
    };
    while (at_ < tokens_.words.size()) {
      const Token& keyword = tokens_.words[at_++];
      auto handler = handlers.find(keyword.word);
      if (handler == handlers.end()) {
        fail(path_, keyword.line,
             (is_real_text(keyword.word) ? "unexpected value '" + keyword.word + "' (no keyword before it takes one)"
                                         : "unknown keyword '" + keyword.word + "'") +
                 "; expected one of " + std::string(keyword_list));
      }
      handler->second(keyword);
      deck.lines[keyword.word] = keyword.line;
    }
  }

 private:
  // The word after `keyword`, which may stand on a later line (the reference's parse_getword(.TRUE.)).
  const Token& value_of(const Token& keyword, std::string_view expected) {
    if (at_ >= tokens_.words.size()) {
      fail(path_, keyword.line, keyword.word + ": missing value; expected " + std::string(expected));
    }
    return tokens_.words[at_++];
  }
  std::string value_context(const Token& keyword, const Token& value) const {
    if (value.line == keyword.line) return "";
    return " (on line " + std::to_string(value.line) + ")";
  }
  // A keyword at the end of its line whose next word (on a later line) is no value: a missing value.
  [[noreturn]] void missing(const Token& keyword, const Token& next, const std::string& what,
                            std::string_view expected) {
    fail(path_, keyword.line,
         what + ": missing value; expected " + std::string(expected) + ", found '" + next.word + "' on line " +
             std::to_string(next.line));
  }

  int int_value(const Token& keyword, const std::string& name = "") {
    const Token& v = value_of(keyword, "an integer");
    const std::string what = name.empty() ? keyword.word : name;
    if (!is_integer_text(v.word)) {
      if (v.line != keyword.line && !is_real_text(v.word)) missing(keyword, v, what, "an integer");
      fail(path_, keyword.line, what + " '" + v.word + "'" + value_context(keyword, v) + ": not an integer");
    }
    long long value = 0;
    const char* first = v.word.data() + (v.word[0] == '+' ? 1 : 0);
    auto [end, error] = std::from_chars(first, v.word.data() + v.word.size(), value);
    if (error != std::errc() || value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
      fail(path_, keyword.line, what + " " + v.word + value_context(keyword, v) + ": out of range");
    }
    return static_cast<int>(value);
  }

  double real_value(const Token& keyword, const std::string& name = "") {
    const Token& v = value_of(keyword, "a number");
    const std::string what = name.empty() ? keyword.word : name;
    if (!is_real_text(v.word)) {
      if (v.line != keyword.line) missing(keyword, v, what, "a number");
      fail(path_, keyword.line, what + " '" + v.word + "': not a number; expected a number such as 0.04");
    }
    std::string text = v.word;
    std::replace(text.begin(), text.end(), 'd', 'e');  // Fortran's double-precision exponent
    return std::strtod(text.c_str(), nullptr);
  }

  void read_state(Deck& deck, const Token& keyword) {
    const int number = int_value(keyword);
    if (number < 1) fail(path_, keyword.line, "state " + std::to_string(number) + ": expected a state number >= 1");
    // Each state stands on a line of its own and they are numbered without gaps, so a number above
    // the deck's line count can never be valid; refusing it here keeps the state list from being
    // sized by it (found by fuzz/cloverleaf_deck: 'state 32590054' asked for gigabytes).
    if (static_cast<std::size_t>(number) > deck.text.size()) {
      fail(path_, keyword.line,
           "state " + std::to_string(number) + ": expected a state number from 1 to the number of states, but the " +
               "deck has only " + std::to_string(deck.text.size()) + " lines; states are numbered 1, 2, 3, ... " +
               "without gaps");
    }
    if (deck.states.size() < static_cast<std::size_t>(number)) deck.states.resize(static_cast<std::size_t>(number));
    State& s = deck.states[static_cast<std::size_t>(number - 1)];
    if (s.number != 0) {
      fail(path_, keyword.line,
           "state " + std::to_string(number) + " is defined twice (first on line " + std::to_string(s.line) + ")");
    }
    s.number = number;
    s.line = keyword.line;
    const std::string name = "state " + std::to_string(number);
    // Parameters until the end of the line the last word was read from.
    while (!tokens_.words[at_ - 1].line_end && at_ < tokens_.words.size()) {
      const Token& k = tokens_.words[at_++];
      const std::string what = name + " " + k.word;
      if (k.word == "density") s.density = real_value(k, what);
      else if (k.word == "energy") s.energy = real_value(k, what);
      else if (k.word == "xvel") s.xvel = real_value(k, what);
      else if (k.word == "yvel") s.yvel = real_value(k, what);
      else if (k.word == "xmin") s.xmin = real_value(k, what);
      else if (k.word == "xmax") s.xmax = real_value(k, what);
      else if (k.word == "ymin") s.ymin = real_value(k, what);
      else if (k.word == "ymax") s.ymax = real_value(k, what);
      else if (k.word == "radius") s.radius = real_value(k, what);
      else if (k.word == "geometry") {
        const Token& g = value_of(k, "rectangle, circle or point");
        if (g.word == "rectangle") s.geometry = Geometry::rectangle;
        else if (g.word == "circle") s.geometry = Geometry::circle;
        else if (g.word == "point") s.geometry = Geometry::point;
        else
          fail(path_, k.line, what + " '" + g.word + "'" + value_context(k, g) +
                                  ": unknown geometry; expected rectangle, circle or point");
      } else {
        fail(path_, k.line,
             name + ": unknown state keyword '" + k.word + "'; expected one of " + std::string(state_keyword_list));
      }
    }
  }

  Tokens tokens_;
  std::string path_;
  int ranks_;
  std::size_t at_ = 0;
};

void check(const Deck& d, bool ok, const std::string& keyword, const std::string& message) {
  if (!ok) fail(d.path, d.line_of(keyword), message);
}

std::string number_text(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

void validate(const Deck& d) {
  check(d, d.x_cells >= 1, "x_cells", "x_cells " + std::to_string(d.x_cells) + ": expected a positive number of cells");
  check(d, d.y_cells >= 1, "y_cells", "y_cells " + std::to_string(d.y_cells) + ": expected a positive number of cells");
  check(d, d.xmax > d.xmin, d.line_of("xmax") ? "xmax" : "xmin",
        "xmin " + number_text(d.xmin) + ", xmax " + number_text(d.xmax) + ": expected xmax > xmin");
  check(d, d.ymax > d.ymin, d.line_of("ymax") ? "ymax" : "ymin",
        "ymin " + number_text(d.ymin) + ", ymax " + number_text(d.ymax) + ": expected ymax > ymin");
  check(d, d.dtinit > 0, "initial_timestep",
        "initial_timestep " + number_text(d.dtinit) + ": expected a positive timestep");
  check(d, d.dtmax > 0, "max_timestep", "max_timestep " + number_text(d.dtmax) + ": expected a positive timestep");
  check(d, d.dtrise > 0, "timestep_rise", "timestep_rise " + number_text(d.dtrise) + ": expected a positive factor");
  check(d, d.end_time > 0, "end_time", "end_time " + number_text(d.end_time) + ": expected a positive time");
  check(d, d.end_step >= 1, "end_step", "end_step " + std::to_string(d.end_step) + ": expected at least 1 step");
  check(d, d.summary_frequency >= 0, "summary_frequency",
        "summary_frequency " + std::to_string(d.summary_frequency) + ": expected 0 (only at the end) or more");
  check(d, d.visit_frequency >= 0, "visit_frequency",
        "visit_frequency " + std::to_string(d.visit_frequency) + ": expected 0 (no VisIt output) or more");
  check(d, d.tiles_per_chunk >= 1, "tiles_per_chunk",
        "tiles_per_chunk " + std::to_string(d.tiles_per_chunk) + ": expected at least 1 tile per chunk");
  check(d, d.test_problem >= 0 && d.test_problem <= 5, "test_problem",
        "test_problem " + std::to_string(d.test_problem) + ": expected 1 to 5 (the reference's test problems) or 0");

  if (d.states.empty()) fail(d.path, 0, "no states defined; expected at least 'state 1 density=... energy=...'");
  for (std::size_t i = 0; i < d.states.size(); ++i) {
    const State& s = d.states[i];
    const std::string name = "state " + std::to_string(i + 1);
    if (s.number == 0) {
      // Name the line of the next state that is defined (the last state always is).
      std::size_t next = i + 1;
      while (d.states[next].number == 0) ++next;
      fail(d.path, d.states[next].line,
           "state " + std::to_string(next + 1) + " is defined, but " + name +
               " is not; states are numbered 1, 2, 3, ... without gaps");
    }
    if (!(s.density > 0)) fail(d.path, s.line, name + " density " + number_text(s.density) + ": expected a positive density");
    if (i > 0 && s.geometry == Geometry::none) {
      fail(d.path, s.line, name + " has no geometry; expected geometry=rectangle, circle or point (only state 1, the "
                                  "background, needs none)");
    }
  }
}

}  // namespace

std::string Deck::where(const std::string& keyword) const {
  const int line = line_of(keyword);
  return line > 0 ? path + " line " + std::to_string(line) : path;
}

Deck parse_deck(std::string_view text, const std::string& path, int ranks) {
  Deck deck;
  deck.path = path;
  Tokens tokens = tokenize(text, path, deck.text);
  if (!tokens.found_block) {
    fail(path, 0, "no *clover block; the deck's keywords go between a line '*clover' and a line '*endclover'");
  }
  Parser(std::move(tokens), path, ranks).run(deck);
  validate(deck);
  return deck;
}

std::string_view deck_keywords() { return keyword_list; }
std::string_view state_keywords() { return state_keyword_list; }

}  // namespace cloverleaf
