// SPDX-License-Identifier: BSD-3-Clause
#include "message_options.hpp"

#include <algorithm>

#include "messenger.hpp"
#include "option_values.hpp"
#include "size_list.hpp"
#include "usage_error.hpp"

namespace gwbench {
namespace {

std::vector<std::string> parse_implementations(const std::string& text) {
  std::vector<std::string> chosen;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = std::min(text.find(',', start), text.size());
    std::string name = text.substr(start, comma - start);
    const auto& known = implementation_names();
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw UsageError("--impl '" + text + "': unknown implementation '" + name + "' (known: " + list + ")");
    }
    if (std::find(chosen.begin(), chosen.end(), name) == chosen.end()) chosen.push_back(name);
    start = comma + 1;
  }
  return chosen;
}

}  // namespace

MessageOptions parse_message_options(const std::vector<std::string>& args, bool streaming) {
  MessageOptions o;
  o.sizes = default_sizes();
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string option = args[i], value;
    if (std::size_t equals = option.find('='); option.rfind("--", 0) == 0 && equals != std::string::npos) {
      value = option.substr(equals + 1);
      option.resize(equals);
    } else if (option.rfind("--", 0) == 0) {
      if (i + 1 >= args.size()) throw UsageError(option + " needs a value");
      value = args[++i];
    } else {
      throw UsageError("unexpected argument '" + option + "' (options start with --)");
    }
    if (option == "--sizes") o.sizes = parse_size_list(value);
    else if (option == "--impl") o.implementations = parse_implementations(value);
    else if (option == "--min-time") o.min_time = parse_seconds(option, value);
    else if (option == "--iterations") o.iterations = parse_count(option, value, 1, 1'000'000'000);
    else if (option == "--repeats") o.repeats = static_cast<int>(parse_count(option, value, 1, 1000));
    else if (option == "--warmup") o.warmup = parse_count(option, value, 0, 1'000'000'000);
    // The clock starts here, before MPI_Init: the launch's start counts against the deadline too.
    else if (option == "--deadline") o.deadline = Deadline(parse_seconds(option, value, 86400), Deadline::clock::now());
    else if (option == "--window" && streaming) o.window = static_cast<int>(parse_count(option, value, 1, 4096));
    else if (option == "--verify") {
      if (value == "ends") o.verify = Verify::ends;
      else if (value == "full") o.verify = Verify::full;
      else throw UsageError("--verify '" + value + "': expected ends or full");
    } else if (option == "--format") {
      if (value == "table") o.format = OutputFormat::table;
      else if (value == "json") o.format = OutputFormat::json;
      else if (value == "both") o.format = OutputFormat::both;
      else throw UsageError("--format '" + value + "': expected table, json or both");
    } else {
      throw UsageError("unknown option '" + option + "'");
    }
  }
  return o;
}

std::string message_options_help(bool streaming) {
  std::string text =
      "  --sizes LIST       message sizes: bytes with K/M/G (binary) and power-of-two ranges,\n"
      "                     comma separated (default 8-4M, i.e. 8 B to 4 MiB)\n"
      "  --impl LIST        implementations to compare (default: all that apply to the path):\n";
  for (const auto& name : implementation_names())
    text += "                       " + name + std::string(14 - std::min<std::size_t>(13, name.size()), ' ') +
            std::string(implementation_summary(name)) + "\n";
  text +=
      "  --min-time SEC     aim for this long per repetition of a point (default 0.25)\n"
      "  --iterations N     a fixed number of iterations instead of the adaptive count\n"
      "  --repeats N        repetitions of every point, interleaved; the median is reported (default 5)\n"
      "  --warmup N         warm-up iterations before calibrating (default 10)\n"
      "  --deadline SEC     end within SEC seconds of the start: the time left is shared out over the\n"
      "                     sizes still to measure, and a size's repetitions stop when the next would\n"
      "                     not end within its share (at least one; JSON repeats_asked says how many were\n"
      "                     asked); a \"# budget:\" line names what was cut (default: none)\n";
  if (streaming) text += "  --window W         messages per window before the receiver acknowledges (default 64)\n";
  text +=
      "  --verify ends|full check the stamp in each message's first and last bytes (default), or every byte\n"
      "                     (slower: for tests, not for timing)\n"
      "  --format table|json|both   what to print on standard output (default both)\n";
  return text;
}

}  // namespace gwbench
