// SPDX-License-Identifier: BSD-3-Clause
// The misuse catalogue (docs/runtime.md, "Misuse catalogue"): tables of wrong calls, each row the
// call, the wrong argument, the Errc it must raise and a fragment its message must contain (the
// argument's name). A row is checked on every rank; with --print-catalogue rank 0 also prints the
// row as a line of the docs' table, with the message the library actually gave.
#pragma once

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "ghostwire/error.hpp"
#include "ghostwire/ghostwire.h"
#include "mpi_test_main.hpp"

namespace misuse {

struct Case {
  const char* call;       // e.g. "Segment::put"
  const char* wrong;      // what is wrong, e.g. "target rank = size"
  ghostwire::Errc code;   // what it must raise
  const char* fragment;   // what the message must contain: the argument's name at least
  std::function<void()> body;
};

// A C API call as a throwing body: a non-zero return code becomes a ghostwire::Error carrying the
// code and gw_last_error_message(), so C rows are checked exactly as C++ ones.
inline void c_call(int code) {
  if (code != GW_SUCCESS) throw ghostwire::Error(static_cast<ghostwire::Errc>(code), gw_last_error_message());
}

// The Errc as the code spells it (the catalogue's column), e.g. "`out_of_range`".
inline const char* errc_spelling(ghostwire::Errc code) {
  switch (code) {
    case ghostwire::Errc::invalid_argument: return "`invalid_argument`";
    case ghostwire::Errc::out_of_range: return "`out_of_range`";
    case ghostwire::Errc::mismatch: return "`mismatch`";
    case ghostwire::Errc::state: return "`state`";
    default: return ghostwire::errc_name(code);
  }
}

inline std::string table_cell(std::string text) {
  for (char& c : text)
    if (c == '|') c = '/';
  if (text.size() > 110) text = text.substr(0, 107) + "...";
  return text;
}

// Runs every case of `table` (named `test` in the catalogue) and checks code and message.
inline void check_table(const std::string& test, const std::vector<Case>& table) {
  const bool print = gwtest::option("print-catalogue") == "1" && gwtest::world().rank() == 0;
  const bool trace = gwtest::option("trace") == "1";  // names each row before it runs (to find a crash)
  for (const Case& c : table) {
    if (trace) std::fprintf(stderr, "misuse: %s with %s\n", c.call, c.wrong);
    SCOPED_TRACE(std::string(c.call) + " with " + c.wrong);
    std::string message;
    bool threw = false;
    try {
      c.body();
    } catch (const ghostwire::Error& error) {
      threw = true;
      message = error.what();
      EXPECT_EQ(static_cast<int>(error.code()), static_cast<int>(c.code))
          << c.call << " with " << c.wrong << ": " << message;
      EXPECT_NE(message.find(c.fragment), std::string::npos)
          << c.call << " with " << c.wrong << ": message '" << message << "' lacks '" << c.fragment << "'";
    }
    EXPECT_TRUE(threw) << c.call << " with " << c.wrong << " did not throw";
    if (print)
      std::printf("| `%s` | %s | %s | %s | %s |\n", c.call, c.wrong, errc_spelling(c.code),
                  table_cell(message).c_str(), test.c_str());
  }
}

}  // namespace misuse
